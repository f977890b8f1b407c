import Foundation

/// A recorded reply for ``StubURLProtocol`` to replay: a status, headers and body chunks, or a transport failure.
public struct StubResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The response header fields.
    public var headers: [String: String]
    /// The body, delivered as these chunks in order.
    public var chunks: [Data]
    /// A transport failure: before any response when `status` is 0, otherwise after the chunks.
    public var failure: URLError.Code?
    /// The failure's description, as FoundationNetworking passes libcurl's text through.
    public var failureDescription: String?
    /// When true, nothing is delivered: the request stays open until cancelled.
    public var hangs: Bool
    /// When true, the head and chunks are delivered and then the connection stays open until cancelled.
    public var staysOpen: Bool

    /// Creates a reply.
    public init(status: Int = 200, headers: [String: String] = [:], chunks: [Data] = [],
                failure: URLError.Code? = nil, hangs: Bool = false, staysOpen: Bool = false) {
        self.status = status
        self.headers = headers
        self.chunks = chunks
        self.failure = failure
        self.hangs = hangs
        self.staysOpen = staysOpen
    }

    /// A JSON body with the given status.
    public static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> StubResponse {
        var headers = headers
        headers["Content-Type"] = headers["Content-Type"] ?? "application/json; charset=utf-8"
        return StubResponse(status: status, headers: headers, chunks: [Data(text.utf8)])
    }

    /// A DummyJSON error: `{"message": …}` with the status.
    public static func message(_ message: String, status: Int, headers: [String: String] = [:]) -> StubResponse {
        let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return json("{\"message\":\"\(escaped)\"}", status: status, headers: headers)
    }

    /// A status with no body.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(status: status, headers: headers)
    }

    /// A transport failure with no response.
    public static func failure(_ code: URLError.Code) -> StubResponse {
        StubResponse(status: 0, failure: code)
    }

    /// A body cut short the way FoundationNetworking reports it on Linux: URLError code -1 with libcurl's text.
    public static func truncated(_ body: String, missing: Int) -> StubResponse {
        var response = StubResponse(status: 200, headers: ["Content-Type": "application/json"],
                                    chunks: [Data(body.utf8)], failure: .unknown)
        response.failureDescription = "transfer closed with \(missing) bytes remaining to read"
        return response
    }

    /// A request that never answers until cancelled.
    public static let hang = StubResponse(hangs: true)

    /// A `text/event-stream` reply carrying `text` in the given chunks, optionally cut by a failure at the end.
    public static func eventStream(_ chunks: [String], endingWith failure: URLError.Code? = nil,
                                   staysOpen: Bool = false) -> StubResponse {
        StubResponse(status: 200, headers: ["Content-Type": "text/event-stream"],
                     chunks: chunks.map { Data($0.utf8) }, failure: failure, staysOpen: staysOpen)
    }
}
