import UnderstudyOpenAPI
import UnderstudyRecording

/// What the journal says of a forwarded request: the upstream's status (0 when it gave none) and how long it
/// took to answer, or why it failed.
struct UpstreamOutcome: Equatable, Sendable {
    var status: Int
    /// From sending the request to the upstream's head (or failure), in milliseconds.
    var milliseconds: Double
    /// Why the upstream gave no whole reply; nil when it did.
    var failure: String?
    /// The upstream's whole reply, when it is being recorded.
    var reply: CapturedReply?
    /// How the exchange broke the document it is held to (`--upstream URL --spec FILE`).
    var violations: [ContractViolation] = []
}

/// An upstream's reply as it came, before any fault touched it: what a recording keeps.
struct CapturedReply: Equatable, Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    /// A relayed WebSocket's conversation, both ways, times from its 101.
    var messages: [RecordedSocketMessage] = []
    /// How many of its later messages were not kept, past the recording's limit.
    var messagesLeftOut = 0
}
