import Foundation
import UnderstudyJSON
import UnderstudyRecording

/// What `/__understudy/recording` reads and changes: the upstream, the recorder, the replayed recording's routes.
struct RecordingControls {
    let upstream: Upstream?
    let recorder: Recorder
    let replayedRoutes: [String]?
}

/// `/__understudy/recording`: start and stop recording what the upstream answers, snapshot the last forwarded
/// exchanges into a directory, and see what is recorded and what the replayed recording missed.
extension AdminRoutes {
    func startRecording(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard recording.upstream != nil else { throw needsUpstream("Recording") }
        let writer = try writer(from: try body(of: request), allowing: ["directory", "redact", "redactFields"])
        recording.recorder.use(writer)
        return json(recordingStatus(), status: 201)
    }

    func stopRecording() throws(APIError) -> HTTPResponse {
        guard recording.recorder.isRecording else { throw APIError(409, "Nothing is being recorded") }
        let status = recordingStatus()
        recording.recorder.use(nil)
        return json(status)
    }

    func snapshot(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard recording.upstream != nil else { throw needsUpstream("A snapshot") }
        let writer = try writer(from: try body(of: request), allowing: ["directory", "redact", "redactFields"])
        let count = recording.recorder.snapshot(into: writer)
        return json(.object(JSONObject([
            .init(key: "directory", value: .string(writer.directory.path)),
            .init(key: "exchanges", value: .number(JSONNumber(count))),
        ])), status: 201)
    }

    func recordingStatus() -> JSONValue {
        let state = recording.recorder.current
        let failures = state.writer?.failures ?? []
        let strings: ([String]) -> JSONValue = { .array($0.map(JSONValue.string)) }
        return .object(JSONObject([
            .init(key: "upstream", value: recording.upstream.map { .string($0.url) } ?? .null),
            .init(key: "recording", value: .bool(state.writer != nil)),
            .init(key: "directory", value: state.writer.map { .string($0.directory.path) } ?? .null),
            .init(key: "redacted", value: state.writer.map { .bool($0.options.redacts) } ?? .null),
            .init(key: "recorded", value: .number(JSONNumber(state.recorded))),
            .init(key: "skipped", value: .number(JSONNumber(state.skipped))),
            .init(key: "pendingBytes", value: .number(JSONNumber(state.writer?.pendingBytes ?? 0))),
            .init(key: "recordedRoutes", value: strings(state.routes.sorted())),
            .init(key: "replayedRoutes", value: recording.replayedRoutes.map(strings) ?? .null),
            .init(key: "misses", value: .number(JSONNumber(state.misses))),
            .init(key: "recentMisses", value: strings(state.recentMisses)),
            .init(key: "recentExchanges", value: .number(JSONNumber(state.recent.count))),
            // What the writer could not write (a full disk, or more waiting for it than it holds): `recorded`
            // counts what was handed over, so a test compares the two.
            .init(key: "writeFailures", value: .number(JSONNumber(failures.count))),
            .init(key: "lastWriteFailure", value: failures.last.map { .string($0.description) } ?? .null),
        ]))
    }

    /// A writer for `{"directory": "…", "redact": true, "redactFields": ["…"]}`.
    private func writer(from fields: JSONObject, allowing keys: Set<String>) throws(APIError) -> RecordingWriter {
        try FaultJSON.allowOnly(keys, in: fields)
        guard let directory = fields["directory"]?.stringValue, !directory.isEmpty else {
            throw APIError(400, "Invalid 'directory' - required: the directory to record into, e.g. \"recordings/login\"")
        }
        var redacts = true
        if let value = fields["redact"] {
            guard case .bool(let flag) = value else { throw APIError(400, "Invalid 'redact' - must be true or false") }
            redacts = flag
        }
        var redactedFields: [String] = []
        if let value = fields["redactFields"] {
            guard case .array(let items) = value, let names = Optional(items.compactMap(\.stringValue)),
                  names.count == items.count, !names.contains(where: \.isEmpty) else {
                throw APIError(400, "Invalid 'redactFields' - must be an array of JSON field names")
            }
            redactedFields = names
        }
        do {
            return try RecordingWriter(directory: URL(fileURLWithPath: directory),
                                       options: RecordingOptions(redactedFields: redactedFields, redacts: redacts))
        } catch {
            throw APIError(400, "Invalid 'directory' - \(error)")
        }
    }

    private func needsUpstream(_ what: String) -> APIError {
        APIError(409, "\(what) needs an upstream (start with --upstream URL): it records what the upstream answers")
    }
}
