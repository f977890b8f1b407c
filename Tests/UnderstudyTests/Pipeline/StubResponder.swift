@testable import Understudy

/// A responder whose every part a test sets: what `PipelineTests` decide against, with no catalogue behind it.
final class StubResponder: Responder {
    static let body = Array(#"{"id":1,"title":"A stubbed reply, long enough to cut and pace"}"#.utf8)

    var canned: CannedAnswer?
    var cansFaultReplies = false
    var pendingGroundwork: Groundwork?
    var requestKind = RequestKind.body
    var answer = Answer.response(.json(StubResponder.body))
    /// What `respond` was asked, in order.
    private(set) var asked: [(target: String, kind: RequestKind, fault: FaultSpec?)] = []
    /// The plans `delivery(for:)` was asked to carry out.
    private(set) var deliveriesAsked = 0

    func cannedReply(for request: HTTPRequest) -> CannedAnswer? { canned }

    func groundwork(for request: HTTPRequest) -> Groundwork? { pendingGroundwork }

    func kind(of request: HTTPRequest) -> RequestKind { requestKind }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        asked.append((request.target, kind, fault))
        return answer
    }

    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? {
        deliveriesAsked += 1
        return BrokenConnection(.hang)
    }
}

extension Pipeline {
    /// A pipeline asking `responder`, with the real admin API, faults and middleware of `configuration`.
    static func testing(_ responder: any Responder,
                        configuration: UnderstudyServer.Configuration = UnderstudyServer.Configuration(),
                        attached: Bool = true) -> Pipeline {
        let journal = Journal(capacity: 100)
        let faults = FaultController(seed: 1, journal: journal)
        let feed = LiveFeed(faults: faults, journal: journal)
        let recorder = Recorder(writer: nil)
        let remoteControl = RemoteControlPolicy(host: configuration.host, token: configuration.adminToken)
        let admin = AdminResponder(remoteControl: remoteControl, faults: faults, journal: journal, feed: feed,
                                   recording: RecordingControls(upstream: nil, recorder: recorder, replayedRoutes: nil),
                                   sockets: WebSocketHub(clock: configuration.clock), boundHost: configuration.host, allowedHosts: [], maximumFeedBacklogBytes: 1 << 16)
        if attached { admin.attach(FakeTransport.shared, ports: ["http": 8080]) }
        return Pipeline(responder: responder, admin: admin, faults: faults, remoteControl: remoteControl,
                        middleware: MiddlewareChain(journal: journal, feed: feed, recorder: recorder, requestLog: nil),
                        clock: configuration.clock, monotonicMilliseconds: { 5_000 })
    }

    /// The pipeline a server of `configuration` runs, its responder chosen by the factory.
    static func serving(_ configuration: UnderstudyServer.Configuration) -> Pipeline {
        let journal = Journal(capacity: 100)
        return ResponderFactory(configuration: configuration, faults: FaultController(seed: 1, journal: journal),
                                journal: journal, monotonicMilliseconds: { 5_000 }).build().pipeline
    }

    /// The plan for `request`, planned again as if its indexes were built when it would wait for them.
    func replyPlan(for request: HTTPRequest, stopping: Bool = false) -> ReplyPlan {
        switch plan(for: request, stopping: stopping) {
        case .reply(let plan): plan
        case .awaitingIndexes: replyPlan(afterIndexes: request)
        }
    }

    private func replyPlan(afterIndexes request: HTTPRequest) -> ReplyPlan {
        guard case .reply(let plan) = plan(for: request, stopping: false, indexesReady: true) else {
            fatalError("a request planned with its indexes ready waited again")
        }
        return plan
    }
}

/// Transport controls with nothing behind them, for the admin routes that read the transport.
final class FakeTransport: TransportControls {
    nonisolated(unsafe) static let shared = FakeTransport()
    var isOffline: Bool { false }
    var offlineMillisecondsLeft: Double { 0 }
    var heldReplies: Int { 0 }
    var tlsFaults: TLSFaultQueue? { nil }
    func goOffline(forMilliseconds milliseconds: Int) {}
    func sendUpstream(_ request: UpstreamRequest) -> UpstreamExchange { .unsent("no upstream", at: 0) }
    func openUpstreamSocket() -> UpstreamSocket? { nil }
    var loopSubmitter: @Sendable (@escaping @Sendable () -> Void) -> Void { { work in work() } }
}
