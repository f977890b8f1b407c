/// One request and the reply it got, as a recording keeps them.
///
/// The proxy hands one to ``RecordingWriter`` as each reply finishes; the HAR importer builds them from a HAR's
/// entries. Only the headers worth keeping are written (not the connection's, nor `Date` or `ETag`), and the
/// writer redacts secrets before anything reaches the disk.
public struct RecordedExchange: Sendable, Equatable {
    /// The request as the client sent it.
    public var request: Request
    /// The reply the upstream gave.
    public var response: Response

    /// An exchange from its two halves.
    public init(request: Request, response: Response) {
        self.request = request
        self.response = response
    }
}

extension RecordedExchange {
    /// A name and a value, in the order the request or reply gave them: a header line or a query parameter.
    public struct Field: Sendable, Equatable, Hashable {
        /// The header's name in the case it was sent in (`Content-Type`), or the query parameter's name, decoded.
        public var name: String
        /// The header's value, or the parameter's value decoded (empty when it came with none).
        public var value: String

        /// A field from its name and value.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One header line; a name may repeat (`Set-Cookie`).
    public typealias Header = Field
    /// One decoded query parameter.
    public typealias QueryItem = Field

    /// A request: what matching reads (method, path, query, body) and the headers worth keeping.
    public struct Request: Sendable, Equatable {
        /// The method in upper case, e.g. `GET`.
        public var method: String
        /// The path as sent (still percent-encoded), without the query, e.g. `/products/1`.
        public var path: String
        /// The query parameters, decoded, in request order.
        public var query: [QueryItem]
        /// The header lines.
        public var headers: [Header]
        /// The body bytes (empty when there was none).
        public var body: [UInt8]

        /// A request; the method is upper-cased, and an empty path becomes `/`.
        public init(method: String, path: String, query: [QueryItem] = [], headers: [Header] = [], body: [UInt8] = []) {
            self.method = method.uppercased()
            self.path = path.isEmpty ? "/" : path
            self.query = query
            self.headers = headers
            self.body = body
        }
    }

    /// A reply: its status, the headers worth keeping and its body, or for a WebSocket (a 101) its messages.
    public struct Response: Sendable, Equatable {
        /// The HTTP status, e.g. 200.
        public var status: Int
        /// The header lines.
        public var headers: [Header]
        /// The body bytes (empty when there was none).
        public var body: [UInt8]
        /// A WebSocket's conversation after its 101, in the order it was sent (empty for any other reply).
        public var messages: [RecordedSocketMessage]
        /// How many of the conversation's later messages the recording left out, past its size limit (0: none).
        public var messagesLeftOut: Int

        /// A reply.
        public init(status: Int, headers: [Header] = [], body: [UInt8] = [], messages: [RecordedSocketMessage] = [],
                    messagesLeftOut: Int = 0) {
            self.status = status
            self.headers = headers
            self.body = body
            self.messages = messages
            self.messagesLeftOut = messagesLeftOut
        }
    }
}

extension [RecordedExchange.Header] {
    /// The first value of the header `name`, compared without regard to ASCII case.
    public func value(for name: String) -> String? {
        first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
