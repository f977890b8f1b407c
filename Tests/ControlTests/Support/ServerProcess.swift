import Foundation
import UnderstudyControl
import UnderstudyTestSupport

/// The `understudy` binary running in a child process, reached only through `UnderstudyControl`.
///
/// `@unchecked Sendable`: the child is only read (its pid, its output files) after start, and stopped once.
final class ServerProcess: @unchecked Sendable {
    let child: ChildProcess
    let baseURL: URL
    let control: ControlClient

    struct StartFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `understudy --port 0 --quiet` with more arguments, and reads its URL from its first line.
    init(_ arguments: [String] = [], token: String? = nil) throws {
        child = try ChildProcess(executable: ServerProcess.executable, arguments: ["--port", "0", "--quiet"] + arguments)
        guard let line = child.firstLine(within: 20), let last = line.split(separator: " ").last,
              let url = URL(string: String(last).replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1")) else {
            throw StartFailed(description: "understudy did not print its URL; stderr: \(child.errors)")
        }
        baseURL = url
        control = ControlClient(baseURL: url, token: token)
    }

    /// Runs `body` against a server of its own, stopped afterwards whatever happens.
    static func with<T>(_ arguments: [String] = [], token: String? = nil,
                        _ body: (ServerProcess) async throws -> T) async throws -> T {
        let server = try ServerProcess(arguments, token: token)
        defer { server.stop() }
        return try await body(server)
    }

    func stop() {
        child.send(SIGTERM)
        child.waitForExit()
    }

    /// One server shared by the session-trait tests, as a CI job's `make run` would be; killed at exit.
    static let shared: ServerProcess = {
        let server = try! ServerProcess()
        sharedPID = server.child.pid
        atexit { if sharedPID > 0 { kill(sharedPID, SIGKILL) } }
        return server
    }()

    nonisolated(unsafe) private static var sharedPID: pid_t = 0

    /// The executable SwiftPM builds next to the test bundle.
    static var executable: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("understudy")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/understudy").path
    }
}
