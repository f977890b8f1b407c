import Testing
import UnderstudyJSON
@testable import Understudy

/// The pipeline's decisions, values in and values out, against a stub responder: the sequence (stop, admin, fast
/// path, token, groundwork, one fault decision, the answer, the middleware), every branch of the fault decision,
/// and what each answer becomes. No catalogue, no socket, no loop; each responder has its own suite.
@Suite struct PipelineTests {
    private let responder = StubResponder()
    private let pipeline: Pipeline

    init() {
        var configuration = UnderstudyServer.Configuration()
        configuration.clock = { 1_000 }
        pipeline = Pipeline.testing(responder, configuration: configuration)
    }

    private func plan(_ method: String = "GET", _ target: String = "/items/1", fault: String? = nil,
                      headers: HTTPHeaders = [:], stopping: Bool = false) -> ReplyPlan {
        var all = headers
        if let fault { all.add(FaultHeaders.fault, fault) }
        return pipeline.replyPlan(for: HTTPRequest(method: method, target: target, headers: all, arrivedAt: 1_000),
                                  stopping: stopping)
    }

    private func text(_ plan: ReplyPlan) -> String {
        String(decoding: plan.response.body.bytesCopy, as: UTF8.self)
    }

    @Test func aStoppingServerClosesWithNoReply() {
        #expect(plan(stopping: true).delivery == .empty)
        #expect(responder.asked.isEmpty)
    }

    @Test func theAdminAPIIsAnsweredByItsOwnResponder() {
        let health = plan("GET", "/__understudy/health")
        #expect(health.isAdmin)
        #expect(health.response.status == 200)
        #expect(responder.asked.isEmpty)
    }

    @Test func theResponderIsAskedOnceWithTheKindItGaveAndNoFault() {
        responder.requestKind = .stream(throughAuth: true)
        _ = plan()
        #expect(responder.asked.count == 1)
        #expect(responder.asked.first?.kind == .stream(throughAuth: true))
        #expect(responder.asked.first?.fault == nil)
    }

    @Test func theRespondersCannedReplyIsTheFastPathOnlyForAPlainGET() {
        let canned = CannedReply(body: SharedBytes(StubResponder.body), etag: "W/\"1\"")
        responder.canned = (canned, 7)
        let fast = plan()
        #expect(fast.canned === canned)
        #expect(fast.delayMilliseconds == 7)
        #expect(responder.asked.isEmpty)
        #expect(plan("POST").canned == nil)
        #expect(plan(headers: ["Origin": "http://a"]).canned == nil)
        #expect(plan(fault: "delay=5ms").canned == nil)
        #expect(responder.asked.count == 3)
    }

    @Test func aRuleInstalledTurnsTheFastPathOff() throws {
        responder.canned = (CannedReply(body: SharedBytes(StubResponder.body), etag: "W/\"1\""), 0)
        try pipeline.faults.add(FaultRule(match: FaultRule.Match(path: "/elsewhere"), fault: "status=500"))
        #expect(plan().canned == nil)
    }

    @Test func aPlainErrorStatusIsCannedOnlyWhereTheResponderAllowsIt() {
        let routed = plan(fault: "status=503")
        #expect(routed.canned == nil)
        #expect(routed.response.status == 503)
        responder.cansFaultReplies = true
        let canned = plan(fault: "status=503")
        #expect(canned.canned?.status == 503)
        #expect(canned.applied == "status=503")
        #expect(canned.delivery == .whole)
        #expect(plan(fault: "status=503").canned === canned.canned)
    }

    @Test func aRequestWhoseIndexesAreNotBuiltWaitsThenIsAnswered() {
        responder.pendingGroundwork = Groundwork(narrowing: { _ in true }, sort: nil)
        let request = HTTPRequest(method: "GET", target: "/items?q=x")
        guard case .awaitingIndexes = pipeline.plan(for: request, stopping: false) else {
            Issue.record("the request did not wait for its index")
            return
        }
        #expect(responder.asked.isEmpty)
        guard case .reply(let plan) = pipeline.plan(for: request, stopping: false, indexesReady: true) else {
            Issue.record("the request waited again")
            return
        }
        #expect(plan.response.status == 200)
        #expect(responder.asked.count == 1)
    }

    @Test func aFaultThatNeedsTheTokenIsRefusedBeforeTheGroundwork() {
        var configuration = UnderstudyServer.Configuration()
        configuration.adminToken = "secret"
        let guarded = Pipeline.testing(responder, configuration: configuration)
        responder.pendingGroundwork = Groundwork(narrowing: { _ in true }, sort: nil)
        let refused = guarded.replyPlan(for: HTTPRequest(method: "GET", target: "/items",
                                                        headers: [FaultHeaders.fault: "status=500"]))
        #expect(refused.response.status == 401)
        #expect(responder.asked.isEmpty)
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

    @Test func aStatusWithADelayReplacesTheAnswer() {
        let plan = plan(fault: "status=500; delay=1ms")
        #expect(plan.canned == nil)
        #expect(plan.response.status == 500)
        #expect(plan.delayMilliseconds == 1)
        #expect(plan.applied == "status=500; delay=1ms")
    }

    @Test func theAnswersDelayAddsToTheFaultsDelay() {
        responder.answer = .reply(.json(StubResponder.body), delayMilliseconds: 20)
        #expect(plan(fault: "delay=5ms").delayMilliseconds == 25)
    }

    @Test func anExpiredTokenNeedsATokenToExpire() {
        let withToken = plan(fault: "expire-token", headers: ["Authorization": "Bearer abc"])
        #expect(withToken.response.status == 401)
        #expect(text(withToken).contains("Token Expired!"))
        let without = plan(fault: "expire-token")
        #expect(without.response.status == 200)
        #expect(without.applied == nil)
    }

    @Test func malformedBreaksOnlyASuccessfulBody() {
        let broken = plan(fault: "malformed")
        #expect(broken.response.status == 200)
        #expect((try? JSONParser.parse(broken.response.body.bytesCopy)) == nil)
        #expect(broken.applied == "malformed")
        responder.answer = .response(.message("Not found", status: 404))
        let missing = plan(fault: "malformed")
        #expect(missing.response.status == 404)
        #expect(missing.applied == nil)
    }

    @Test func bodyFaultsChooseTheirDelivery() {
        let length = StubResponder.body.count
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
        let head = plan("HEAD", fault: "truncate=10")
        #expect(head.delivery == .whole)
        #expect(head.applied == nil)
    }

    @Test func streamFaultsActOnlyOnAStreamAndReachTheResponder() {
        responder.requestKind = .stream(throughAuth: false)
        let stream = plan(fault: "drop-after=1; delay=1ms")
        #expect(stream.applied == "drop-after=1; delay=1ms")
        #expect(responder.asked.last?.fault?.stream.dropAfter == 1)
        responder.requestKind = .body
        let notAStream = plan(fault: "drop-after=1; delay=1ms")
        #expect(notAStream.applied == "delay=1ms")
        #expect(notAStream.delivery == .whole)
    }

    @Test func aForwardedAnswerCarriesItsBodyFaultsToTheDelivery() {
        responder.requestKind = .forwarded
        responder.answer = .forward
        let plain = plan()
        #expect(plain.delivery == .proxy(ProxyPlan()))
        let faulted = plan(fault: "truncate=10")
        guard case .proxy(let proxyPlan) = faulted.delivery else {
            Issue.record("not forwarded: \(faulted.delivery)")
            return
        }
        #expect(proxyPlan.truncation == .bytes(10))
        #expect(proxyPlan.appliedToBody == "truncate=10")
        #expect(proxyPlan.appliedToStream == nil)
        // Either kind's directives may act: the upstream's head tells which kind of reply it is.
        guard case .proxy(let streamPlan) = plan(fault: "drop-after=2").delivery else {
            Issue.record("a stream fault was not forwarded")
            return
        }
        #expect(streamPlan.stream.dropAfter == 2)
        #expect(streamPlan.appliedToStream == "drop-after=2")
        // A connection fault needs no upstream: nothing is forwarded.
        #expect(plan(fault: "reset").delivery == .reset(afterHeaders: false))
        #expect(plan(fault: "reset=after-headers").delivery == .proxy(ProxyPlan(resetAfterHead: true)))
    }

    @Test func theDeliveryIsBuiltFromTheFinalResponseOrByTheResponder() {
        let truncated = plan(fault: "truncate=10")
        guard let delivery = pipeline.delivery(for: truncated) as? TruncatedBody else {
            Issue.record("not a truncated body")
            return
        }
        #expect(delivery.body == Array(StubResponder.body))
        #expect(delivery.cut == .bytes(10))
        #expect(pipeline.delivery(for: plan()) == nil)
        #expect(responder.deliveriesAsked == 0)
        responder.answer = .forward
        _ = pipeline.delivery(for: plan())
        #expect(responder.deliveriesAsked == 1)
    }
}
