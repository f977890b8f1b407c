/// What a responder answers: a response (with the delay its request asked for and, for a stream or the live feed,
/// the delivery that sends its body), or that the upstream answers, once any fault's delay is over.
enum Answer {
    case reply(HTTPResponse, delayMilliseconds: Int = 0, delivery: ReplyPlan.Delivery = .whole)
    /// Forwarded: the pipeline decides how the request's faults act on the upstream's reply (`ProxyPlan`), and the
    /// responder's delivery sends it.
    case forward

    /// A response sent whole, at once.
    static func response(_ response: HTTPResponse) -> Answer {
        .reply(response)
    }
}

/// What kind of reply a request gets, as far as its responder knows before answering: the fault decision leaves out
/// the directives that cannot act on it (stream directives on a body, body directives on a stream).
enum RequestKind: Equatable {
    /// A body, sent whole or faulted as one.
    case body
    /// An event stream; `throughAuth` when the request reached it through `/auth` (which checks its token).
    case stream(throughAuth: Bool)
    /// A WebSocket's upgrade: its faults act on the socket's messages.
    case socket
    /// Forwarded: the kind is known once the upstream answers, so directives of either kind may act.
    case forwarded

    /// What the fault's directives act on; nil when not known yet.
    var target: FaultTarget? {
        switch self {
        case .body: .body
        case .stream: .eventStream
        case .socket: .socket
        case .forwarded: nil
        }
    }
}
