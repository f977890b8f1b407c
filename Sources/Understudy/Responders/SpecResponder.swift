import UnderstudyLocking
import UnderstudyOpenAPI

/// Answers from an OpenAPI document (`--spec`): the request becomes the mock's value and its answer a response, so
/// faults, sessions, the journal and the middleware treat it as any other. The session keeps its own state and its
/// seed; `Prefer` (or the `__code` query) chooses the response.
///
/// An answer the mock calls repeatable (a GET with no state, seed, credentials or headers behind it) is canned
/// after its first plain GET, and later plain GETs of that target (with no `Accept` or `Prefer`) take the fast
/// path, until a preference is set or state reset.
final class SpecResponder: Responder {
    let engine: MockEngine
    private let clock: @Sendable () -> Double
    @exclusivity(unchecked) private var canned: [String: CannedReply] = [:]
    /// The engine's `changes` when `canned` was last valid.
    private var cannedAt = 0
    static let maximumCannedReplies = 4_096

    init(engine: MockEngine, clock: @escaping @Sendable () -> Double) {
        self.engine = engine
        self.clock = clock
    }

    /// A document's API has its own rate-limit headers, if any; DummyJSON's are not added to it.
    var sendsRateLimitWindow: Bool { false }

    func cannedReply(for request: HTTPRequest) -> CannedAnswer? {
        guard !canned.isEmpty else { return nil }
        guard engine.changes.load() == cannedAt else {
            canned.removeAll(keepingCapacity: true)
            return nil
        }
        guard let reply = canned[request.target], request.headers["Accept"] == nil, request.headers["Prefer"] == nil else {
            return nil
        }
        return (reply, 0)
    }

    /// A `text/event-stream` operation's request is a stream's: the stream faults act on its events.
    func kind(of request: HTTPRequest) -> RequestKind {
        engine.answersWithEvents(method: request.method, path: String(request.path), accept: request.headers["Accept"])
            ? .stream(throughAuth: false) : .body
    }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        let version = engine.changes.load()
        let answer = engine.respond(to: MockRequest(request), session: request.session, seed: seed, now: clock())
        var response = response(answer)
        if case .stream = kind, response.headers["Content-Type"].map({ $0.hasPrefix("text/event-stream") }) == true,
           request.method != "HEAD" {
            let body = answer.body
            response.body = .empty
            return .reply(response, delivery: .events(DocumentEventsPlan(body: body, faults: fault?.stream ?? FaultSpec.StreamFaults())))
        }
        if answer.repeatable, fault == nil, request.headers["Accept"] == nil, !request.hasOriginOrCondition {
            remember(response, for: request.target, version: version)
        }
        return .response(response)
    }

    func documentedReply(status: Int, for request: HTTPRequest, seed: UInt64) -> HTTPResponse? {
        guard let answer = engine.documented(status: status, for: MockRequest(request), seed: seed) else { return nil }
        return response(answer)
    }

    /// The mock's answer as a response, a 200 with a body tagged with its weak ETag.
    private func response(_ answer: MockResponse) -> HTTPResponse {
        var response = HTTPResponse(answer)
        if answer.status == 200, !answer.body.isEmpty { response.etag = HTTPResponse.weakETag(for: answer.body) }
        return response
    }

    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? {
        guard case .events(let events) = plan.delivery else { return nil }
        return DocumentEvents(events.body, faults: events.faults)
    }

    private func remember(_ response: HTTPResponse, for target: String, version: Int) {
        if version != cannedAt {
            canned.removeAll(keepingCapacity: true)
            cannedAt = version
        }
        guard canned[target] == nil, canned.count < SpecResponder.maximumCannedReplies,
              let reply = CannedReply.canning(response, rateLimitWindow: false) else { return }
        canned[target] = reply
    }
}
