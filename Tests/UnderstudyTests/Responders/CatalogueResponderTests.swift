import Testing
@testable import Understudy

/// The catalogue's responder alone: the stream row found once and handed back, the router's canned replies as the
/// fast path, and the stream's delivery.
@Suite struct CatalogueResponderTests {
    private let responder: CatalogueResponder

    init() {
        let catalog = Catalog.standard
        responder = CatalogueResponder(router: Router(catalog: catalog, tokens: TokenService(secret: "s"), now: { 1_000 }),
                                       streams: StreamSource(catalog: catalog, maximumUnflushedBytes: 1 << 16),
                                       sockets: WebSocketHub(clock: { 1_000 }))
    }

    private func request(_ target: String, method: String = "GET", headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers, arrivedAt: 1_000)
    }

    private func answer(_ request: HTTPRequest, fault: FaultSpec? = nil) -> (HTTPResponse, Int, ReplyPlan.Delivery) {
        switch responder.respond(to: request, as: responder.kind(of: request), fault: fault, seed: 1) {
        case .reply(let response, let delay, let delivery): (response, delay, delivery)
        case .forward: (HTTPResponse(status: 0), 0, .whole)
        }
    }

    @Test func theStreamRowIsTheKindOfGETAndHEADOnly() {
        #expect(responder.kind(of: request("/products/stream")) == .stream(throughAuth: false))
        #expect(responder.kind(of: request("/product/stream", method: "HEAD")) == .stream(throughAuth: false))
        #expect(responder.kind(of: request("/auth/products/stream")) == .stream(throughAuth: true))
        #expect(responder.kind(of: request("/products/stream", method: "POST")) == .body)
        #expect(responder.kind(of: request("/products/1")) == .body)
    }

    @Test func aStreamIsDeliveredToAGETAndItsHeadToAHEAD() {
        let (head, _, delivery) = answer(request("/products/stream?count=2"))
        #expect(head.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
        guard case .stream(let plan) = delivery else {
            Issue.record("no stream delivery: \(delivery)")
            return
        }
        #expect(plan.lastEventID == 2)
        #expect(answer(request("/products/stream?count=2", method: "HEAD")).2 == .whole)
    }

    @Test func theStreamsFaultsComeFromTheDecidedFault() throws {
        let (_, _, delivery) = answer(request("/products/stream?count=4"), fault: try FaultSpec(parsing: "drop-after=1"))
        guard case .stream(let plan) = delivery else {
            Issue.record("no stream delivery")
            return
        }
        #expect(plan.faults.dropAfter == 1)
    }

    @Test func aStreamTheClientHasWholeIs204() {
        let (response, _, delivery) = answer(request("/products/stream?count=2", headers: ["Last-Event-ID": "2"]))
        #expect(response.status == 204)
        #expect(delivery == .whole)
    }

    @Test func aStreamBehindAuthNeedsItsToken() {
        #expect(answer(request("/auth/products/stream")).0.status == 401)
    }

    @Test func aRoutedReplyCarriesTheDelayItAskedFor() {
        let (response, delay, delivery) = answer(request("/products/1?delay=30"))
        #expect(response.status == 200)
        #expect(delay == 30)
        #expect(delivery == .whole)
    }

    @Test func aCachedTargetIsCannedOnceRouted() {
        let target = request("/products/2")
        #expect(responder.cannedReply(for: target) == nil)
        _ = answer(target)
        #expect(responder.cannedReply(for: target)?.reply.status == 200)
        #expect(responder.cansFaultReplies)
    }

    @Test func theStreamsDeliveryIsAnEventStream() {
        let pipeline = Pipeline.testing(responder)
        let plan = pipeline.replyPlan(for: request("/products/stream?count=1"))
        #expect(responder.delivery(for: plan, clientAddress: nil) is EventStream)
        #expect(responder.delivery(for: pipeline.replyPlan(for: request("/products/1")), clientAddress: nil) == nil)
    }

    @Test func aRouteReplyBuiltPerRequestGetsAnETagThroughThePipeline() {
        // `/auth/me` is built from the user's stored text on every request, outside the reply cache.
        let user = Catalog.standard.users.user(named: "emilys")!
        var configuration = UnderstudyServer.Configuration()
        configuration.clock = { 1_000 }
        let token = TokenService(secret: configuration.tokenSecret)
            .sign(claims: user.tokenClaims, issuedAt: 1_000, lifetimeSeconds: 3_600)
        let me = Pipeline.serving(configuration).replyPlan(for: request("/auth/me", headers: ["Authorization": "Bearer \(token)"]))
        #expect(me.response.status == 200)
        #expect(me.response.headers["ETag"] == HTTPResponse.weakETag(for: user.encoded.bytes))
    }
}
