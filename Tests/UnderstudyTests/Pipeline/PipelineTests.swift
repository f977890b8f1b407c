import Testing
import UnderstudyJSON
@testable import Understudy

/// The pipeline's decisions, values in and values out: every branch of the fault decision and of the fast path,
/// with no socket and no loop.
@Suite struct PipelineTests {
    private let pipeline: Pipeline

    init() {
        var configuration = UnderstudyServer.Configuration()
        configuration.clock = { 1_000 }
        let journal = Journal(capacity: 100)
        pipeline = Pipeline(configuration: configuration, faults: FaultController(seed: 1, journal: journal),
                            journal: journal)
    }

    private func plan(_ method: String = "GET", _ target: String = "/products/1", fault: String? = nil,
                      headers: HTTPHeaders = [:], stopping: Bool = false) -> ReplyPlan {
        var all = headers
        if let fault { all.add(FaultHeaders.fault, fault) }
        switch pipeline.plan(for: PipelineTests.request(method, target, headers: all), stopping: stopping) {
        case .reply(let plan):
            return plan
        case .awaitingIndexes:
            Issue.record("\(method) \(target) waits for an index at the fixtures' size")
            return pipeline.plan(for: PipelineTests.request(method, target, headers: all), stopping: stopping,
                                 indexesReady: true).reply!
        }
    }

    /// A request as the transport reads one: the headers the fast path looks at found while reading.
    static func request(_ method: String, _ target: String, headers: HTTPHeaders) -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers, arrivedAt: 1_000)
    }

    private func text(_ plan: ReplyPlan) -> String {
        String(decoding: plan.response.body.bytesCopy, as: UTF8.self)
    }

    @Test func aStoppingServerClosesWithNoReply() {
        #expect(plan(stopping: true).delivery == .empty)
    }

    @Test func aCachedRouteTakesTheFastPathAndAFaultedOneDoesNot() {
        let first = plan()
        let second = plan()
        #expect(first.canned != nil || second.canned != nil)
        let faulted = plan(fault: "delay=5ms")
        #expect(faulted.canned == nil)
        #expect(faulted.delayMilliseconds == 5)
        #expect(faulted.applied == "delay=5ms")
    }

    @Test func aPlainErrorStatusIsCannedOnceAndSentAsIs() {
        let plan = plan(fault: "status=503")
        #expect(plan.canned?.status == 503)
        #expect(plan.applied == "status=503")
        #expect(plan.delivery == .whole)
    }

    @Test func anInvalidSessionIsTheClientsError() {
        let plan = plan(headers: [FaultHeaders.session: String(repeating: "x", count: 500)])
        #expect(plan.response.status == 400)
        #expect(plan.session == nil)
        #expect(text(plan).contains("Invalid '\(FaultHeaders.session)'"))
    }

    @Test func anInvalidSpecIsA400NamingTheDirective() {
        let plan = plan(fault: "status=503; bogus")
        #expect(plan.response.status == 400)
        #expect(text(plan).contains("bogus"))
        #expect(plan.delivery == .whole)
    }

    @Test func aRateLimitCountsInItsBucketThenRefuses() {
        let allowed = plan(fault: "rate-limit=1/10s")
        #expect(allowed.response.status == 200)
        #expect(allowed.response.headers["X-RateLimit-Limit"] == "1")
        #expect(allowed.response.headers["X-RateLimit-Remaining"] == "0")
        let refused = plan(fault: "rate-limit=1/10s")
        #expect(refused.response.status == 429)
        #expect(refused.applied == "rate-limit=1/10s")
    }

    @Test func aStatusWithADelayReplacesTheRoutedReply() {
        let plan = plan(fault: "status=500; delay=1ms")
        #expect(plan.canned == nil)
        #expect(plan.response.status == 500)
        #expect(plan.delayMilliseconds == 1)
        #expect(plan.applied == "status=500; delay=1ms")
    }

    @Test func anExpiredTokenNeedsATokenToExpire() {
        let withToken = plan(fault: "expire-token", headers: ["Authorization": "Bearer abc"])
        #expect(withToken.response.status == 401)
        #expect(text(withToken).contains("Token Expired!"))
        let without = plan(fault: "expire-token")
        #expect(without.response.status == 200)
        #expect(without.applied == nil)
    }

    @Test func aRouteReplyBuiltPerRequestGetsAnETag() {
        // `/auth/me` is built from the user's stored text on every request, outside the reply cache.
        let user = Catalog.standard.users.user(named: "emilys")!
        let token = TokenService(secret: UnderstudyServer.Configuration().tokenSecret)
            .sign(claims: user.tokenClaims, issuedAt: 1_000, lifetimeSeconds: 3_600)
        let me = plan("GET", "/auth/me", headers: ["Authorization": "Bearer \(token)"])
        #expect(me.response.status == 200)
        #expect(me.response.headers["ETag"] == HTTPResponse.weakETag(for: user.encoded.bytes))
    }

    @Test func malformedBreaksOnlyASuccessfulBody() {
        let broken = plan(fault: "malformed")
        #expect(broken.response.status == 200)
        #expect((try? JSONParser.parse(broken.response.body.bytesCopy)) == nil)
        #expect(broken.applied == "malformed")
        let missing = plan("GET", "/products/99999", fault: "malformed")
        #expect(missing.response.status == 404)
        #expect(missing.applied == nil)
    }

    @Test func bodyFaultsChooseTheirDelivery() {
        let length = plan(fault: "delay=1ms").response.body.count
        #expect(plan(fault: "truncate=10").delivery == .truncated(bytes: 10))
        #expect(plan(fault: "truncate=50%").delivery == .truncated(bytes: length / 2))
        #expect(plan(fault: "truncate=\(length * 2)").delivery == .truncated(bytes: length - 1))
        #expect(plan(fault: "truncate-chunked").delivery == .truncatedChunked)
        #expect(plan(fault: "chunks=4/100ms").delivery == .paced(.chunks(count: 4, overMilliseconds: 100), stall: nil, seed: 0))
        #expect(plan(fault: "rate=64k").delivery == .paced(.bytesPerSecond(64_000), stall: nil, seed: 0))
        // A pause alone paces nothing but is still a paced body, its schedule drawn from the session's generator.
        guard case .paced(nil, stall: 500...500, let seed) = plan(fault: "stall=500ms").delivery else {
            Issue.record("stall alone is not a paced body")
            return
        }
        #expect(seed != 0)
        #expect(plan(fault: "profile=100-loss").delivery == .hang)
    }

    @Test func connectionFaultsWinOverBodyFaults() {
        #expect(plan(fault: "empty").delivery == .empty)
        #expect(plan(fault: "reset").delivery == .reset(afterHeaders: false))
        #expect(plan(fault: "reset=after-headers").delivery == .reset(afterHeaders: true))
        #expect(plan(fault: "hang").delivery == .hang)
        guard case .garbage(let bytes) = plan(fault: "garbage").delivery else {
            Issue.record("garbage was not chosen")
            return
        }
        #expect(!bytes.isEmpty)
    }

    @Test func aReplyWithNoBodySkipsTheBodyFaults() {
        let head = plan("HEAD", "/products/1", fault: "truncate=10")
        #expect(head.delivery == .whole)
        #expect(head.applied == nil)
    }

    @Test func streamFaultsActOnlyOnTheStream() {
        let stream = plan("GET", "/products/stream?count=2", fault: "drop-after=1")
        guard case .stream(let streamPlan) = stream.delivery else {
            Issue.record("no stream delivery: \(stream.delivery)")
            return
        }
        #expect(streamPlan.faults.dropAfter == 1)
        #expect(stream.applied == "drop-after=1")
        let notAStream = plan(fault: "drop-after=1; delay=1ms")
        #expect(notAStream.applied == "delay=1ms")
        #expect(notAStream.delivery == .whole)
    }

    @Test func aStreamTheClientHasWholeIs204() {
        let plan = plan("GET", "/products/stream?count=2", headers: ["Last-Event-ID": "2"])
        #expect(plan.response.status == 204)
        #expect(plan.delivery == .whole)
    }

    @Test func theDeliveryIsBuiltFromTheFinalResponse() {
        let truncated = plan(fault: "truncate=10")
        guard let delivery = pipeline.delivery(for: truncated) as? TruncatedBody else {
            Issue.record("not a truncated body")
            return
        }
        #expect(delivery.body == truncated.response.body.bytesCopy)
        #expect(delivery.cut == .bytes(10))
        #expect(pipeline.delivery(for: plan()) == nil)
    }
}

private extension Pipeline.Planned {
    /// The reply planned, when nothing waits for an index.
    var reply: ReplyPlan? {
        if case .reply(let plan) = self { return plan }
        return nil
    }
}
