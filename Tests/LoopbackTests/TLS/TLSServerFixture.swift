import Foundation
import Understudy
import UnderstudyTestSupport

/// A server serving HTTPS with a local CA of its own in a temporary directory, and the outside clients (curl,
/// Python) that check it as users would.
struct TLSServerFixture {
    let server: UnderstudyServer
    let authority: LocalCertificateAuthority
    /// The HTTPS port.
    var port: Int { server.securePort ?? -1 }
    var url: String { "https://localhost:\(port)" }

    /// Runs `body` against a fresh server: HTTPS on a port of its own beside http when `separatePort`, else alone;
    /// `configure` changes the rest of its configuration.
    static func with<T>(separatePort: Bool = false, readTimeoutSeconds: Int = 30,
                        configure: (inout UnderstudyServer.Configuration) -> Void = { _ in },
                        _ body: (TLSServerFixture) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = UnderstudyServer.Configuration()
        configuration.requestReadTimeoutSeconds = readTimeoutSeconds
        configuration.tls = TLSSettings(identity: .localAuthority(directory: directory), port: separatePort ? 0 : nil)
        configure(&configuration)
        let server = try UnderstudyServer.start(configuration)
        defer { server.stop() }
        return try await body(TLSServerFixture(server: server, authority: LocalCertificateAuthority(directory: directory)))
    }

    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// A program on PATH, run to its end.
    static func run(_ arguments: [String]) throws -> Outcome {
        let child = try ChildProcess(executable: "/usr/bin/env", arguments: arguments)
        let status = child.waitForExit()
        return Outcome(status: status, output: child.output, errors: child.errors)
    }

    /// curl's whole reply (`-i`), trusting the CA when `trusting`; curl's exit status says how the handshake went.
    func curl(_ path: String, trusting: Bool = true, _ extra: [String] = []) throws -> Outcome {
        try TLSServerFixture.run(["curl", "-sS", "-i", "--max-time", "10"] + (trusting ? ["--cacert", authority.caCertificatePath] : [])
                                 + extra + [url + path])
    }

    /// Python's `ssl` with its default context (the CA trusted when `trusting`): prints the status, or the error.
    func python(_ path: String, trusting: Bool) throws -> Outcome {
        let script = """
            import ssl, sys, urllib.request
            context = ssl.create_default_context(cafile=sys.argv[2] if len(sys.argv) > 2 else None)
            try:
                print(urllib.request.urlopen(sys.argv[1], context=context, timeout=10).status)
            except Exception as error:
                print(error)
            """
        return try TLSServerFixture.run(["python3", "-c", script, url + path] + (trusting ? [authority.caCertificatePath] : []))
    }
}
