import Foundation
// `StubHost(recording:)` takes and throws the recording types, so `import UnderstudyTesting` brings them.
@_exported import UnderstudyRecording

extension StubHost {
    /// A host that answers from a recording directory, as `understudy --replay DIR` would, with no server: a unit
    /// test replays what an integration test recorded.
    ///
    /// Matching is the server's: the method, the path, the query in any order (less the ignored parameters), the
    /// body in canonical form, secrets compared as their placeholders; the Nth identical request gets the Nth
    /// recorded answer. A request the recording does not hold gets the server's miss: a 502 `{"message"}` naming
    /// it and the nearest recordings, with `X-Understudy-Replay: miss`.
    ///
    /// ```swift
    /// let host = try StubHost(recording: URL(fileURLWithPath: "Recordings/checkout"))
    /// let client = APIClient(baseURL: host.baseURL, sessionConfiguration: host.sessionConfiguration())
    /// ```
    ///
    /// - Parameters:
    ///   - directory: A directory written by `--record`, `understudy import` or `RecordingWriter`.
    ///   - ignoredQueryParameters: Parameters left out of matching, besides those the recording's manifest lists.
    /// - Throws: `RecordingError` (`file:line:column: reason`) for a directory that is not a valid recording.
    public convenience init(recording directory: URL, ignoredQueryParameters: [String] = []) throws {
        self.init(recording: try Recording(contentsOf: directory), ignoredQueryParameters: ignoredQueryParameters)
    }

    /// A host that answers from a recording already loaded; see ``init(recording:ignoredQueryParameters:)-(URL,_)``.
    ///
    /// - Parameters:
    ///   - recording: The recording to answer from.
    ///   - ignoredQueryParameters: Parameters left out of matching, besides the recording's own.
    public convenience init(recording: Recording, ignoredQueryParameters: [String] = []) {
        let matcher = ReplayMatcher(recording, adding: RecordingOptions(ignoredQueryParameters: ignoredQueryParameters))
        self.init(fallback: { request in
            switch matcher.answer(Self.recordedRequest(request)) {
            case .hit(let response, _): Self.stubResponse(response)
            case .miss(let miss): .message(miss.message, status: ReplayMiss.status, headers: [ReplayMiss.header.name: ReplayMiss.header.value])
            }
        })
    }

    /// The request as the recording's matcher reads it: the path still percent-encoded, the query decoded the way
    /// the server decodes it (`+` is a space), and the content type, which says whether a body is a form.
    private static func recordedRequest(_ request: RecordedRequest) -> RecordedExchange.Request {
        let components = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        let query = (components?.percentEncodedQuery ?? "").split(separator: "&").map { pair -> RecordedExchange.QueryItem in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return RecordedExchange.QueryItem(decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
        return RecordedExchange.Request(
            method: request.method, path: components?.percentEncodedPath ?? "/", query: query,
            headers: request.header("Content-Type").map { [RecordedExchange.Header("Content-Type", $0)] } ?? [],
            body: request.body.map { [UInt8]($0) } ?? [])
    }

    /// A recorded reply as a stub reply; repeated header names are joined with `, `, as `HTTPURLResponse` holds them.
    private static func stubResponse(_ response: RecordedExchange.Response) -> StubResponse {
        var headers: [String: String] = [:]
        for header in response.headers {
            let existing = headers.first { $0.key.caseInsensitiveCompare(header.name) == .orderedSame }?.key
            if let existing, let value = headers[existing] {
                headers[existing] = value + ", " + header.value
            } else {
                headers[header.name] = header.value
            }
        }
        return StubResponse(status: response.status, headers: headers, chunks: response.body.isEmpty ? [] : [Data(response.body)])
    }
}
