import Foundation
import Testing
import UnderstudyTestSupport

/// `understudy --tls…` and `understudy tls ca | pin | trust`, run as a user runs them.
@Suite(.blocksThreads) struct TLSCommandTests {
    func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("understudy-cli-tls-\(UUID().uuidString)").path
    }

    func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: arguments)
        let status = child.waitForExit()
        return (status, child.output, child.errors)
    }

    @Test func caPrintsThePathAndPinPrintsBothPins() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ca = try run(["tls", "ca", "--tls-dir", directory])
        #expect(ca.status == 0, "\(ca.errors)")
        #expect(ca.output == directory + "/understudy-ca.pem\n")
        #expect(FileManager.default.fileExists(atPath: directory + "/understudy-ca.pem"))
        let pin = try run(["tls", "pin", "--tls-dir", directory])
        #expect(pin.status == 0)
        let lines = pin.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("leaf ") == true && lines.last?.hasPrefix("ca   ") == true)
        // A base64 SHA-256 is 44 characters ending in one '='.
        #expect(lines.allSatisfy { $0.split(separator: " ").dropFirst().first { !$0.isEmpty }.map { $0.count == 44 && $0.hasSuffix("=") } == true })
        // The same CA again: reused, so the pins stay.
        #expect(try run(["tls", "pin", "--tls-dir", directory]).output == pin.output)
    }

    @Test func trustPrintsTheCommandsOffAMac() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trust = try run(["tls", "trust", "--tls-dir", directory])
        #if os(macOS)
        #expect(trust.status == 0 || trust.errors.contains("simulator"))
        #else
        #expect(trust.status == 0)
        #expect(trust.output.contains("xcrun simctl keychain booted add-root-cert '\(directory)/understudy-ca.pem'"))
        #endif
    }

    @Test func theServerAnnouncesANewCAAndServesHTTPS() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let child = try ChildProcess(executable: CommandLineTests.executable.path,
                                     arguments: ["--port", "0", "--tls", "--tls-dir", directory, "--quiet"])
        let firstLine = try #require(child.firstLine(within: 10), "stderr: \(child.errors)")
        let url = try #require(firstLine.split(separator: " ").last.map(String.init))
        #expect(url.hasPrefix("https://127.0.0.1:"))
        let curl = try ChildProcess(executable: "/usr/bin/env", arguments: ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
                                                                          "--cacert", directory + "/understudy-ca.pem", url + "/products/1"])
        #expect(curl.waitForExit() == 0)
        #expect(curl.output == "200")
        child.send(SIGTERM)
        #expect(child.waitForExit() == 0)
        #expect(child.errors.contains("made a local CA (no usable local CA): \(directory)/understudy-ca.pem"))
        #expect(child.errors.contains("understudy tls trust --tls-dir '\(directory)'"))
    }

    @Test func anUnreadableCertificateStopsStartUpNamingIt() throws {
        let missing = try run(["--port", "0", "--tls", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("cannot serve HTTPS: cannot read /nonexistent/cert.pem: no such file"))

        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let garbage = directory + "/cert.pem"
        try Data("-----BEGIN CERTIFICATE-----\nnot base64\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let invalid = try run(["--port", "0", "--tls-port", "0", "--tls-cert", garbage, "--tls-key", garbage])
        #expect(invalid.status == 2)
        #expect(invalid.errors.contains("cannot serve HTTPS: \(garbage) is not a PEM certificate chain"))
    }

    @Test(arguments: [
        (["--tls", "--tls-port", "8443"], "--tls and --tls-port exclude each other"),
        (["--tls", "--tls-cert", "a.pem"], "--tls-cert and --tls-key go together"),
        (["--tls-dir", "/tmp/x"], "--tls-dir needs --tls or --tls-port"),
        (["--port", "8443", "--tls-port", "8443"], "--tls-port 8443 is --port too"),
        (["--tls-port", "https"], "--tls-port must be a number from 0 to 65535, not 'https'"),
    ])
    func flagsThatDoNotGoTogetherAreUsageErrors(arguments: [String], message: String) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test func tlsWithoutAnActionIsAUsageError() throws {
        let result = try run(["tls"])
        #expect(result.status == 2)
        #expect(result.errors.contains("name what to do: ca, pin or trust"))
    }

    @Test(arguments: [["tls", "--help"], ["tls", "-h"], ["tls", "ca", "--help"], ["tls", "pin", "-h"], ["tls", "trust", "--help"]])
    func everyTLSCommandAnswersHelp(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("Usage: understudy tls ca"))
        #expect(result.errors.isEmpty)
    }

    /// A CA on disk that does not load is replaced, and both commands say so and exit 1: every client that
    /// trusted the old CA must trust the new one.
    @Test(arguments: ["ca", "pin"])
    func aCorruptCAIsReplacedLoudly(action: String) throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try run(["tls", "ca", "--tls-dir", directory]).status == 0)
        try Data("-----BEGIN CERTIFICATE-----\ngarbage\n".utf8).write(to: URL(fileURLWithPath: directory + "/understudy-ca.pem"))
        let replaced = try run(["tls", action, "--tls-dir", directory])
        #expect(replaced.status == 1)
        #expect(replaced.errors.contains("replaced the local CA"), "\(replaced.errors)")
        #expect(replaced.errors.contains("understudy tls trust --tls-dir '\(directory)'"))
        #expect(replaced.output.contains(directory + "/understudy-ca.pem"), "what was asked for is printed still")
        // The new CA is usable: the next run reuses it quietly.
        let again = try run(["tls", action, "--tls-dir", directory])
        #expect(again.status == 0 && again.errors.isEmpty, "\(again.errors)")
    }
}
