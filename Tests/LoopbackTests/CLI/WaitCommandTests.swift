import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// `understudy wait`, run as a script or an Xcode pre-action runs it: 0 once the server answers, 1 when it does
/// not in time, 2 on a usage error.
@Suite(.blocksThreads) struct WaitCommandTests {
    private func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: ["wait"] + arguments)
        let status = child.waitForExit()
        return .init(status: status, output: child.output, errors: child.errors)
    }

    @Test func aRunningServerAnswersAtOnce() throws {
        let server = try UnderstudyServer.start()
        defer { server.stop() }
        let result = try run(["--timeout", "10", "http://localhost:\(server.port)"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("answered 200"))
    }

    @Test func aURLWithAPathIsAskedAsItIs() throws {
        let server = try UnderstudyServer.start()
        defer { server.stop() }
        #expect(try run(["--timeout=10", "http://127.0.0.1:\(server.port)/products/1"]).status == 0)
        let missing = try run(["--timeout", "0.5", "http://127.0.0.1:\(server.port)/no/such/route"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("last: status 404"))
    }

    /// The point of it: started before the server, it returns once the server is up.
    @Test func itWaitsForAServerThatStartsLater() throws {
        let probe = try UnderstudyServer.start()
        let port = probe.port
        probe.stop()
        let child = try ChildProcess(executable: CommandLineTests.executable.path,
                                     arguments: ["wait", "--timeout", "30", "http://localhost:\(port)"])
        let server = try UnderstudyServer.start(.init(port: port))
        defer { server.stop() }
        #expect(child.waitForExit() == 0, "\(child.errors)")
    }

    @Test func noServerTimesOutWithExit1NamingTheURL() throws {
        let probe = try UnderstudyServer.start()
        let port = probe.port
        probe.stop()
        let result = try run(["--timeout", "0.3", "http://127.0.0.1:\(port)"])
        #expect(result.status == 1)
        #expect(result.errors.contains("no 2xx from http://127.0.0.1:\(port) (GET /health) within 0.3 s"))
        #expect(result.errors.contains("refused"))
    }

    @Test(arguments: [["--timeout", "soon"], ["--timeout"], ["--bogus"], ["ftp://localhost"], ["http://a", "http://b"],
                      ["--timeout", "-1"]])
    func badArgumentsPrintUsageAndExit2(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains("Usage: understudy wait"))
    }
}

extension WaitCommandTests {
    @Test(arguments: [["--help"], ["-h"], ["--timeout", "3", "-h"]])
    func helpPrintsTheUsageAndExits0(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Usage: understudy wait"))
        #expect(result.errors.isEmpty)
    }

    /// An https server is waited for trusting its local CA (`--tls-dir`) or a CA file (`--cacert`); trusting
    /// neither, the handshake's failure is the reason given.
    @Test func anHTTPSServerIsWaitedForTrustingItsCA() async throws {
        try await TLSServerFixture.with { fixture in
            let directory = fixture.authority.directory
            let byDirectory = try run(["--timeout", "10", "--tls-dir", directory, fixture.url])
            #expect(byDirectory.status == 0, "\(byDirectory.errors)")
            #expect(byDirectory.output.contains("answered 200"))
            let byFile = try run(["--timeout", "10", "--cacert", fixture.authority.caCertificatePath,
                                  "https://127.0.0.1:\(fixture.port)/products/1"])
            #expect(byFile.status == 0, "\(byFile.errors)")
            let untrusted = try run(["--timeout", "0.5", "--tls-dir", directory + "-elsewhere", fixture.url])
            #expect(untrusted.status == 1)
            #expect(untrusted.errors.contains("the TLS handshake failed: unable to get local issuer certificate"),
                    "\(untrusted.errors)")
        }
    }

    @Test func aCAFileThatIsNotThereIsAUsageError() throws {
        let result = try run(["--cacert", "/nonexistent/ca.pem", "https://localhost:8443"])
        #expect(result.status == 2)
        #expect(result.errors.contains("--cacert /nonexistent/ca.pem: no such readable file"))
    }
}
