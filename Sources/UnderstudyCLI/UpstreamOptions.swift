import Foundation
import Understudy
import UnderstudyRecording

/// The flags for standing in front of a team's own API: forwarding (`--upstream`), recording (`--record`) and
/// replaying (`--replay`).
struct UpstreamOptions: Equatable {
    var upstream: Upstream?
    var timeoutSeconds: Int?
    var certificateAuthorityFile: String?
    var skipsVerification = false
    var replayDirectory: String?
    var replayIgnoredQuery: [String] = []
    var recordDirectory: String?
    var redactedFields: [String] = []
    var recordsSecrets = false

    static let flags: Set<String> = [
        "--upstream", "--upstream-timeout", "--upstream-ca", "--upstream-insecure", "--replay", "--replay-ignore-query",
        "--record", "--redact-field", "--no-redact",
    ]
    /// The flags that take no value.
    static let switches: Set<String> = ["--upstream-insecure", "--no-redact"]

    typealias UsageError = CommandLineOptions.UsageError

    /// Takes one flag (`value` nil for a switch).
    mutating func read(_ flag: String, value: String?) throws(UsageError) {
        switch flag {
        case "--upstream":
            do throws(UpstreamError) {
                upstream = try Upstream(url: value ?? "")
            } catch {
                throw UsageError(message: error.description)
            }
        case "--upstream-timeout":
            guard let text = value, let seconds = Int(text), (1...3_600).contains(seconds) else {
                throw UsageError(message: "--upstream-timeout must be a whole number of seconds from 1 to 3600, not '\(value ?? "")'")
            }
            timeoutSeconds = seconds
        case "--upstream-ca": certificateAuthorityFile = try nonEmpty(flag, value, "a PEM file")
        case "--upstream-insecure": skipsVerification = true
        case "--replay": replayDirectory = try nonEmpty(flag, value, "a directory")
        case "--replay-ignore-query": replayIgnoredQuery.append(try nonEmpty(flag, value, "a parameter name"))
        case "--record": recordDirectory = try nonEmpty(flag, value, "a directory")
        case "--redact-field": redactedFields.append(try nonEmpty(flag, value, "a JSON field name"))
        default: recordsSecrets = true
        }
    }

    private func nonEmpty(_ flag: String, _ value: String?, _ what: String) throws(UsageError) -> String {
        guard let value, !value.isEmpty else { throw UsageError(message: "\(flag) needs \(what)") }
        return value
    }

    /// Whether the flags make sense together; sets the upstream's timeout.
    mutating func check() throws(UsageError) {
        if upstream == nil {
            for (given, flag) in [(timeoutSeconds != nil, "--upstream-timeout"), (certificateAuthorityFile != nil, "--upstream-ca"),
                                  (skipsVerification, "--upstream-insecure")] where given {
                throw UsageError(message: "\(flag) needs --upstream URL")
            }
        }
        if certificateAuthorityFile != nil, skipsVerification {
            throw UsageError(message: "--upstream-ca and --upstream-insecure exclude each other: one trusts a CA, the other trusts anyone")
        }
        if (certificateAuthorityFile != nil || skipsVerification), upstream?.scheme != "https" {
            throw UsageError(message: "--upstream-ca and --upstream-insecure are for an https:// upstream")
        }
        if recordDirectory != nil, upstream == nil {
            throw UsageError(message: "--record needs --upstream URL: it records what the upstream answers")
        }
        if recordDirectory == nil, !redactedFields.isEmpty || recordsSecrets {
            throw UsageError(message: "--redact-field and --no-redact need --record DIR")
        }
        if !replayIgnoredQuery.isEmpty, replayDirectory == nil {
            throw UsageError(message: "--replay-ignore-query needs --replay DIR")
        }
        if let timeoutSeconds { upstream?.timeoutSeconds = timeoutSeconds }
    }
}

extension UpstreamOptions {
    /// Sets forwarding, replay and recording up in `configuration`; a recording that does not load, or a directory
    /// that cannot be recorded into, is the message to fail with.
    func configure(_ configuration: inout UnderstudyServer.Configuration, warn: (String) -> Void) throws(UsageError) {
        configuration.upstream = upstream
        if let certificateAuthorityFile { configuration.upstream?.certificateAuthorityFile = certificateAuthorityFile }
        if skipsVerification {
            configuration.upstream?.verifiesCertificate = false
            warn("WARNING: --upstream-insecure: the upstream's certificate is not checked; anyone on the way can read and change the traffic.")
        }
        if let replayDirectory {
            do {
                var recording = try Recording(contentsOf: URL(fileURLWithPath: replayDirectory))
                recording.options = recording.options.adding(RecordingOptions(ignoredQueryParameters: replayIgnoredQuery))
                configuration.replay = recording
            } catch {
                throw UsageError(message: "cannot load the recording: \(error)")
            }
        }
        if let recordDirectory {
            let options = RecordingOptions(redactedFields: redactedFields, redacts: !recordsSecrets)
            do {
                configuration.record = try RecordingWriter(directory: URL(fileURLWithPath: recordDirectory), options: options)
            } catch {
                throw UsageError(message: "cannot record into \(recordDirectory): \(error)")
            }
            if recordsSecrets {
                warn("WARNING: --no-redact: tokens, passwords and cookies are written into \(recordDirectory) as they are.")
            }
        }
    }

    /// What the server says it does, after the address.
    func describe(_ configuration: UnderstudyServer.Configuration) -> [String] {
        var lines: [String] = []
        if let recording = configuration.replay {
            let answers = recording.entries.reduce(0) { $0 + $1.responses.count }
            let misses = configuration.upstream.map { "misses go to \($0.url)" } ?? "nothing else is served"
            lines.append("Replaying \(recording.entries.count) recorded requests (\(answers) answers) from \(replayDirectory ?? ""); \(misses).")
        } else if let upstream = configuration.upstream {
            lines.append("Forwarding to \(upstream.url) (faults apply on the way back), seed \(configuration.seed)")
        }
        if let recordDirectory {
            lines.append("Recording forwarded exchanges into \(recordDirectory)\(recordsSecrets ? " UNREDACTED" : ", secrets redacted")")
        }
        return lines
    }
}
