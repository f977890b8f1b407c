/// The pipeline's fast path: replies built once and sent again as is, keyed by what decides their bytes.
///
/// Two kinds qualify, for a GET with no body, no `Origin` and no `If-None-Match` (each of those changes the reply):
/// - a catalogue target the router cached as asking for no fault, while no fault rule is installed (its `?delay=`
///   comes with it);
/// - a fault header asking only for an error status, keyed by the header's text.
/// Anything else, or a request whose session id is too long to be one, goes the whole way through the pipeline.
/// Used on its loop thread only.
final class ReplyCache {
    private let routes: ResponseCache
    private var faultReplies: [String: CannedReply] = [:]

    init(routes: ResponseCache) {
        self.routes = routes
    }

    /// The prebuilt reply for `request` and the delay it asks for; nil when the request needs the pipeline.
    /// `faultReply` builds (or refuses, with nil) the reply to a fault header the first time its text is seen.
    func reply(for request: HTTPRequest, rulesInstalled: Bool,
               faultReply: (String) -> CannedReply?) -> (reply: CannedReply, delayMilliseconds: Int)? {
        guard request.method == "GET", request.body.isEmpty, !request.hasOriginOrCondition else { return nil }
        // A session id the pipeline would refuse gets its 400 there.
        if let session = request.session, FaultController.problem(withSessionID: session) != nil { return nil }
        // An empty fault header asks for nothing.
        if let fault = request.faultHeader, !fault.isEmpty {
            if let known = faultReplies[fault] { return (known, 0) }
            guard let built = faultReply(fault), CannedHead.fits(built) else { return nil }
            if faultReplies.count >= 256 { faultReplies.removeAll(keepingCapacity: true) }
            faultReplies[fault] = built
            return (built, 0)
        }
        guard !rulesInstalled else { return nil }
        return routes.cannedReply(for: request.target)
    }
}
