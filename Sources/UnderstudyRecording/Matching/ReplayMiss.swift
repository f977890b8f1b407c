/// A request no recording matches: what it was, and the nearest recordings, for a message that says what to fix.
public struct ReplayMiss: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status a miss is answered with: the recording, standing in for the upstream, has no answer.
    public static let status = 502
    /// The header that marks a miss's reply (`X-Understudy-Replay: miss`), telling it from an upstream's own 502.
    public static let header = (name: "X-Understudy-Replay", value: "miss")

    /// The request, e.g. `GET /products?limit=5`.
    public let request: String
    /// Up to three recordings near it, e.g. `GET /products?limit=10 (GET/products~1a2b3c4d.json)`.
    public let nearest: [String]

    /// A miss for `request` with the nearest recordings found.
    public init(request: RecordedExchange.Request, nearest: [String]) {
        self.request = Self.describe(request)
        self.nearest = nearest
    }

    /// `No recording matches GET /x?a=1; nearest: …` (or `; nothing recorded is near it`).
    public var message: String {
        "No recording matches \(request); " + (nearest.isEmpty ? "nothing recorded is near it" : "nearest: " + nearest.joined(separator: ", "))
    }

    /// The message.
    public var description: String { message }

    /// `METHOD /path?query` as a person reads it.
    static func describe(_ request: RecordedExchange.Request) -> String {
        request.method + " " + request.path + (request.query.isEmpty ? "" : "?" + QueryText.render(request.query))
    }
}
