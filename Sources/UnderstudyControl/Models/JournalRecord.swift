/// One request the server answered, as its journal keeps it.
public struct JournalRecord: Sendable, Hashable, Decodable {
    /// The entry's number, counting up from 1.
    public let id: Int
    /// When it arrived, ISO 8601 in UTC.
    public let time: String
    /// Its `X-Understudy-Session`, if any.
    public let session: String?
    /// The method.
    public let method: String
    /// The path, without the query.
    public let path: String
    /// The query, without `?` (empty when none).
    public let query: String
    /// The request headers (values over 4 KiB cut, ending in `…`).
    public let headers: [String: String]
    /// The body's size in bytes.
    public let bodySize: Int
    /// The id of the rule that fired, if one did.
    public let rule: String?
    /// The fault applied (the normalised spec), if any.
    public let fault: String?
    /// The status sent; 0 when no status line was (empty, reset, hang, garbage).
    public let status: Int
    /// Body bytes handed to the socket.
    public let bytesWritten: Int
    /// Milliseconds from arrival to the reply being queued; nil when nothing was sent.
    public let firstByteMs: Double?
    /// Milliseconds from arrival to the server finishing with the request.
    public let durationMs: Double?
    /// For a reply its fault paced (`rate`, `chunks`, `stall`, a `profile`): the body's rate as sent, in bytes
    /// per second.
    public let achievedBytesPerSecond: Int?
    /// What the upstream did, for a request forwarded to it (`--upstream`); nil for every other request.
    public let upstream: UpstreamOutcome?

    /// For a WebSocket (a 101): its messages both ways and its closes, recorded when it ended; nil for every other
    /// request.
    public let socket: SocketTranscript?

    /// What a WebSocket said and heard, as the journal keeps it: the newest 1,000 records at most.
    public struct SocketTranscript: Sendable, Hashable, Decodable {
        /// The messages and closes, oldest first.
        public let records: [Record]
        /// How many older records were let go.
        public let leftOut: Int

        /// One message or close.
        public struct Record: Sendable, Hashable, Decodable {
            /// `received` (from the client) or `sent` (to it).
            public let direction: String
            /// `text`, `binary` or `close`.
            public let type: String
            /// The payload's size as the endpoint handed it over; for a close, its reason's.
            public let bytes: Int
            /// Milliseconds from the 101.
            public let milliseconds: Double
            /// A close's code; nil for a message, or a close that gave none.
            public let closeCode: Int?
            /// The socket fault that acted on it (`skip`, `duplicate`, `corrupt=utf8`, …); nil when none did.
            public let fault: String?

            private enum CodingKeys: String, CodingKey {
                case direction, type, bytes, milliseconds = "ms", closeCode, fault
            }
        }
    }

    /// What the upstream did with a forwarded request, as the journal keeps it.
    public struct UpstreamOutcome: Sendable, Hashable, Decodable {
        /// The upstream's status; 0 when it gave none (unreachable, timed out, garbage).
        public let status: Int
        /// Milliseconds from sending the request upstream to the upstream's head (or its failure).
        public let milliseconds: Double?
        /// Why the upstream did not answer in full (`connection refused`, a timeout, …); nil when it did.
        public let failure: String?

        private enum CodingKeys: String, CodingKey {
            case status, milliseconds = "ms", failure
        }
    }

    /// The fault applied, typed (nil when none, or when the text is not one this version reads).
    public var appliedFault: Fault? { fault.flatMap { try? Fault(parsing: $0) } }
}

/// A page of the journal: the newest matching entries (oldest first) and how many matched in all.
public struct JournalPage: Sendable, Hashable, Decodable {
    /// The entries, oldest first.
    public let requests: [JournalRecord]
    /// Every match, before `limit`.
    public let total: Int
}
