import Testing
@testable import Understudy

/// The upstream responder alone: every request is forwarded, its kind unknown until the upstream answers, and its
/// delivery a `ProxiedReply` (an exchange that cannot start, with no transport, fails as unsent).
@Suite struct UpstreamResponderTests {
    private let responder = UpstreamResponder(upstream: try! Upstream(url: "http://127.0.0.1:9/v1"),
                                              recorder: Recorder(writer: nil), sockets: WebSocketHub(clock: { 0 }),
                                              monotonicMilliseconds: { 42 })

    @Test func everyRequestIsForwardedWhateverItsKind() {
        let request = HTTPRequest(method: "GET", target: "/products/stream")
        #expect(responder.kind(of: request) == .forwarded)
        guard case .forward = responder.respond(to: request, as: .forwarded, fault: nil, seed: 1) else {
            Issue.record("not forwarded")
            return
        }
    }

    @Test func aForwardedPlanIsCarriedOutByAProxiedReply() {
        let pipeline = Pipeline.testing(responder)
        let plan = pipeline.replyPlan(for: HTTPRequest(method: "GET", target: "/pets"))
        #expect(plan.delivery == .proxy(ProxyPlan()))
        guard var delivery = responder.delivery(for: plan, clientAddress: "127.0.0.1") as? ProxiedReply else {
            Issue.record("no proxied reply")
            return
        }
        // No transport is attached: the exchange fails before anything is sent, and the client gets a 502.
        let turn = delivery.advance(DeliveryContext(now: 42))
        #expect(turn.steps.contains { if case .replyHead(let status, _, _) = $0 { status == 502 } else { false } })
        #expect(delivery.upstream?.failure != nil)
    }

    @Test func aPlanItDidNotForwardHasNoDeliveryOfItsOwn() {
        let plan = Pipeline.testing(StubResponder()).replyPlan(for: HTTPRequest(method: "GET", target: "/pets"))
        #expect(responder.delivery(for: plan, clientAddress: nil) == nil)
    }
}
