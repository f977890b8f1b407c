/// One thing a delivery asks its writer to do.
enum DeliveryStep: Equatable {
    /// Send the plan's status line and headers, with this `Content-Length`; nil: the body is chunked.
    case head(contentLength: Int?)
    /// Send this status line and these headers instead of the plan's (a reply whose head came from elsewhere: the
    /// upstream's), with this `Content-Length`; nil: the body is chunked.
    case replyHead(status: Int, headers: HTTPHeaders, contentLength: Int?)
    /// Send body bytes (a chunk of a chunked body); nothing is sent for none.
    case body([UInt8])
    /// Send bytes straight to the socket, outside HTTP's framing.
    case raw([UInt8])
    /// End the reply cleanly: the connection stays open for the next request.
    case end
    /// Close the connection now: a FIN, or with `reset` an RST.
    case close(reset: Bool)
    /// Close once every written byte has left for the socket (an RST after a short pause, so the client reads the
    /// bytes before the reset).
    case closeWhenFlushed(reset: Bool)
    /// Send nothing and hold the connection until the client leaves.
    case hang

    /// Whether the step ends the delivery: nothing after it is performed, and the delivery is not advanced again.
    var isFinal: Bool {
        switch self {
        case .head, .replyHead, .body, .raw: false
        case .end, .close, .closeWhenFlushed, .hang: true
        }
    }
}
