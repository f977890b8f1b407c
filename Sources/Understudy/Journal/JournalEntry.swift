/// One request as the server saw and answered it.
public struct JournalEntry: Sendable {
    /// Increasing from 1 over the server's life, in the order the server finished with requests.
    public let id: Int
    /// Arrival, in seconds since 1970.
    public let time: Double
    /// The `X-Understudy-Session` it carried.
    public let session: String?
    public let method: String
    /// The path without the query.
    public let path: String
    /// The raw query, without `?` (empty when none).
    public let query: String
    public let headers: HTTPHeaders
    public let bodySize: Int
    /// The id of the rule that fired, if one did.
    public let rule: String?
    /// The fault applied (normalised spec), if any.
    public let fault: String?
    /// The status sent, or 0 when no status line was sent (empty, reset, hang, garbage).
    public let status: Int
    /// Body bytes handed to the socket (for a truncated body, the part sent).
    public let bytesWritten: Int
    /// From arrival to the reply being queued, in milliseconds (nil when nothing was sent).
    public let firstByteMilliseconds: Double?
    /// From arrival to the server finishing with it, in milliseconds.
    public let durationMilliseconds: Double

    /// The `Authorization` header it carried.
    public var authorization: String? { headers["Authorization"] }
}
