/// What one WebSocket said and heard, as its journal entry keeps it: the messages both ways and the closes, oldest
/// first, each with its size and when it went, since the 101.
///
/// A socket can live for hours, so the transcript keeps the newest `capacity` records at most (and says how many
/// older ones it let go), and no message bodies: sizes are what a test asserts on and what a demo shows.
///
/// ```swift
/// let socket = try #require(server.journal.entries(path: "/ws/echo").last?.socket)
/// #expect(socket.messages.map(\.direction) == [.received, .sent, .received])
/// ```
public struct SocketTranscript: Sendable, Equatable {
    /// One message or close on the socket.
    public struct Record: Sendable, Equatable {
        /// Which way it went.
        public enum Direction: String, Sendable {
            /// From the client to the server.
            case received
            /// From the server to the client.
            case sent
        }

        /// What it was.
        public enum Kind: String, Sendable {
            /// A text message.
            case text
            /// A binary message.
            case binary
            /// A close frame.
            case close
        }

        /// Which way it went.
        public let direction: Direction
        /// What it was.
        public let kind: Kind
        /// The message's payload in bytes (as the endpoint sent it, before a fault broke it); for a close, its reason's.
        public let bytes: Int
        /// Milliseconds from the 101 to this record.
        public let milliseconds: Double
        /// A close's code; nil for a message, or a close that gave none.
        public let closeCode: Int?
        /// The socket fault that acted on this message (`skip`, `duplicate`, `corrupt=utf8`, `cut-mid-event`); nil
        /// when it went as it was.
        public let fault: String?
    }

    /// The records, oldest first.
    public private(set) var records: [Record] = []
    /// How many older records were let go to keep within `capacity`.
    public private(set) var leftOut = 0

    /// The most records a transcript keeps.
    public static let capacity = 1_000

    /// The data messages alone, oldest first (the closes left out).
    public var messages: [Record] { records.filter { $0.kind != .close } }

    /// Adds a record; past `capacity`, the oldest half goes at once, so a long socket costs O(1) per record.
    mutating func append(_ record: Record) {
        if records.count >= SocketTranscript.capacity {
            let dropped = SocketTranscript.capacity / 2
            records.removeFirst(dropped)
            leftOut += dropped
        }
        records.append(record)
    }
}
