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
    /// Replayed answers that never change (`--replay`), canned the first time each target is served.
    private var replayReplies: [String: CannedReply] = [:]
    static let maximumReplayReplies = 4_096

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

    /// The canned answer of a replayed recording for a plain GET of `request.target`, once one was remembered.
    func replayReply(for request: HTTPRequest, rulesInstalled: Bool) -> (reply: CannedReply, delayMilliseconds: Int)? {
        guard !replayReplies.isEmpty, request.method == "GET", request.body.isEmpty, !request.hasOriginOrCondition,
              (request.faultHeader ?? "").isEmpty, !rulesInstalled, let canned = replayReplies[request.target] else {
            return nil
        }
        if let session = request.session, FaultController.problem(withSessionID: session) != nil { return nil }
        return (canned, 0)
    }

    /// Cans `response`, the one recorded answer a plain GET of `target` gets, when its head is one the canned path
    /// writes byte for byte as the pipeline would: `Content-Type` first (evhttp adds its own default when no field
    /// is called that), a 2xx with a body. Recorded rate-limit counters (an API that sends DummyJSON's, as
    /// DummyJSON and Understudy do) are kept as recorded, where the canned head would add the server's own.
    func rememberReplay(_ response: HTTPResponse, for target: String) {
        guard replayReplies[target] == nil, replayReplies.count < ReplyCache.maximumReplayReplies,
              (200..<300).contains(response.status), response.status != 204, response.body.count > 0,
              response.headers.fields.first?.name.lowercased() == "content-type" else { return }
        let body: SharedBytes
        switch response.body {
        case .shared(let shared): body = shared
        case .bytes(let bytes): body = SharedBytes(bytes)
        case .empty: return
        }
        let canned = CannedReply(status: response.status, headers: response.headers.fields, body: body,
                                 etag: response.status == 200 ? response.etag : nil, fault: nil)
        guard CannedHead.fits(canned) else { return }
        replayReplies[target] = canned
    }
}
