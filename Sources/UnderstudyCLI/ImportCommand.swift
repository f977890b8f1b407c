import Foundation
import UnderstudyRecording

/// `understudy import FILE.har --to DIR`: writes a HAR's exchanges as a recording and says what it did with each.
enum ImportCommand {
    /// The exit status: 0 imported, 1 nothing imported (not a HAR, no usable entry, a directory it cannot write),
    /// 2 usage.
    static func run(_ arguments: [String]) -> Int32 {
        let options: ImportOptions
        do {
            options = try ImportOptions.parse(arguments)
        } catch {
            StandardError.say("understudy import: \(error.message)\n\n\(ImportOptions.usage)")
            return 2
        }
        if options.showHelp {
            print(ImportOptions.usage)
            return 0
        }
        let recordingOptions = RecordingOptions(ignoredQueryParameters: options.ignoredQueryParameters,
                                                redactedFields: options.redactedFields, redacts: options.redacts)
        let result: HARImport
        do {
            result = try HARImport.run(file: URL(fileURLWithPath: options.file),
                                       into: URL(fileURLWithPath: options.directory), options: recordingOptions,
                                       reading: HARReadOptions(hosts: options.hosts,
                                                               keepsEntriesWithoutBodies: options.keepsEntriesWithoutBodies))
        } catch {
            StandardError.say("understudy import: \(error)")
            return 1
        }
        report(result, options: options)
        for failure in result.failures { StandardError.say("understudy import: \(failure)") }
        guard result.failures.isEmpty else { return 1 }
        guard !result.archive.exchanges.isEmpty else {
            StandardError.say("understudy import: no entry of \(options.file) could be imported")
            return 1
        }
        return 0
    }

    /// What was read, each file the directory now holds, the notes and the entries left out, on standard output.
    private static func report(_ result: HARImport, options: ImportOptions) {
        let archive = result.archive
        let total = archive.exchanges.count + archive.skipped.count
        print("Read \(total) \(total == 1 ? "entry" : "entries") from \(options.file), written by \(archive.exporter).")
        if archive.hosts.count > 1 {
            let hosts = archive.hosts.map { "\($0.name) (\($0.entries))" }.joined(separator: ", ")
            print(archive.host.map { "Hosts: \(hosts); imported \($0) only." } ?? "Hosts: \(hosts); imported all of them.")
        }
        for entry in result.recording.entries {
            let statuses = entry.responses.map {
                $0.messages.isEmpty ? String($0.status) : "\($0.status) (a WebSocket: \($0.messages.count) messages)"
            }.joined(separator: ", ")
            print("  wrote \(entry.file): \(describe(entry.request)) -> \(statuses)")
        }
        for exchange in archive.exchanges {
            for note in exchange.notes { print("  note: entry \(exchange.entryIndex) (\(exchange.summary)): \(note)") }
        }
        if result.beyondSequence > 0 {
            print("  note: \(result.beyondSequence) repeated answers were not written: a recording keeps at most "
                  + "\(result.maximumSequence) per request, and a replay repeats the last")
        }
        for skipped in archive.skipped { print("  skipped \(skipped)") }
        print("Imported \(archive.exchanges.count) of \(total) into \(options.directory); skipped \(archive.skipped.count).")
        print(options.redacts
              ? "Secrets are placeholders (Authorization, Cookie, Set-Cookie and token-like JSON fields); --no-redact keeps them."
              : "Redaction is OFF: the recording holds every secret the HAR held.")
    }

    /// `GET /products?limit=5`.
    private static func describe(_ request: RecordedExchange.Request) -> String {
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return request.method + " " + request.path + (query.isEmpty ? "" : "?" + query)
    }
}
