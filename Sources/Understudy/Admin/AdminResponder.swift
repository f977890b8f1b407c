import UnderstudyOpenAPI

/// Answers `/__understudy/…`: the admin gate (same origin, a known `Host`), the control room's page (which needs no
/// token: it asks for one), the admin token, then the live feed or the admin API's route table. Requests here skip
/// the fast path and the fault decision. Used on its loop thread only.
final class AdminResponder: Responder {
    private let remoteControl: RemoteControlPolicy
    private let faults: FaultController
    private let journal: Journal
    /// The control room's live feed (`GET /__understudy/events`).
    let feed: LiveFeed
    private let recording: RecordingControls
    private let spec: MockEngine?
    private let contract: ContractWatch?
    private let boundHost: String
    private let allowedHosts: [String]
    /// How much a feed viewer that stopped reading may have waiting before it is dropped.
    private let maximumFeedBacklogBytes: Int
    /// Set once the transport is bound (`attach`): who may reach the admin API, and the routes that read and change
    /// the transport.
    /// The open WebSockets (`/__understudy/sockets`).
    private let sockets: WebSocketHub
    private var gate: AdminGate?
    private var routes: AdminRoutes?

    init(remoteControl: RemoteControlPolicy, faults: FaultController, journal: Journal, feed: LiveFeed,
         recording: RecordingControls, spec: MockEngine? = nil, contract: ContractWatch? = nil,
         sockets: WebSocketHub, boundHost: String, allowedHosts: [String], maximumFeedBacklogBytes: Int) {
        self.spec = spec
        self.sockets = sockets
        self.contract = contract
        self.remoteControl = remoteControl
        self.faults = faults
        self.journal = journal
        self.feed = feed
        self.recording = recording
        self.boundHost = boundHost
        self.allowedHosts = allowedHosts
        self.maximumFeedBacklogBytes = maximumFeedBacklogBytes
    }

    /// Connects the transport, once it is bound: `ports` are its origins' ports by scheme.
    func attach(_ transport: any TransportControls, ports: [String: Int]) {
        gate = AdminGate(boundHost: boundHost, ports: ports, allowedHosts: allowedHosts)
        routes = AdminRoutes(faults: faults, journal: journal, transport: transport, recording: recording, spec: spec,
                             contract: contract, sockets: sockets)
        feed.offlineMillisecondsLeft = { [weak transport] in transport?.offlineMillisecondsLeft ?? 0 }
    }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        // Same origin and a known Host first, then the token: a foreign page is refused whatever it presents,
        // before the body is parsed or anything changes. The control room's page itself needs no token (it asks
        // for one); everything it then does, the feed included, does.
        if let refusal = gate?.refusal(for: request) { return .response(refusal.response) }
        if let page = ControlRoomAssets.response(for: request, tokenRequired: remoteControl.token != nil) {
            return .response(page)
        }
        if let refusal = remoteControl.refusal(for: request, admin: true) { return .response(refusal.response) }
        if ControlRoomAssets.isFeed(request.path) {
            do throws(APIError) {
                let head = try ControlRoomAssets.feedHead(for: request)
                return .reply(head, delivery: request.method == "GET" ? .feed(try FeedRequest.parse(request)) : .whole)
            } catch {
                return .response(error.response)
            }
        }
        guard let routes else { return .response(APIError(503, "The admin API is not ready yet").response) }
        return .response(routes.respond(to: request))
    }

    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? {
        guard case .feed(let request) = plan.delivery else { return nil }
        return FeedDelivery(feed: feed, request: request, maximumUnflushedBytes: maximumFeedBacklogBytes)
    }
}
