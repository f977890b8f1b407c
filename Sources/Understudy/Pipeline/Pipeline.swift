/// The one path every request takes: a request value in, a `ReplyPlan` out, then told how the reply went.
///
/// Read top to bottom, `plan(for:)` is a request's whole life before the transport writes it: a stopping server
/// answers nothing; the admin API sits behind the admin gate and the admin token; a reply already built for what
/// decides its bytes is taken from the cache; everything else gets the token check for faults, then waits for any
/// index its route needs that is not built yet (`Router+Groundwork.swift`), then one fault decision and routing
/// (`Pipeline+Faults.swift`). Every reply then passes through the middleware, in order, and every finished reply passes
/// through them again (`completed`). Used on its loop thread only.
final class Pipeline {
    let router: Router
    let faults: FaultController
    let journal: Journal
    let remoteControl: RemoteControlPolicy
    /// The control room's live feed (`GET /__understudy/events`).
    let feed: LiveFeed
    /// What every `/products/stream` draws on.
    let streams: StreamSource
    let clock: @Sendable () -> Double
    /// The API every request outside the admin API is forwarded to (`--upstream`), if any.
    let upstream: Upstream?
    /// Where forwarded exchanges are recorded, when they are.
    let recorder: Recorder
    let cache: ReplyCache
    /// The recording that answers instead of the built-in routes (`--replay`), when one is given.
    let replay: ReplayRoutes?
    /// Whether the DummyJSON routes answer: not while a recording is replayed or requests are forwarded, and only
    /// they have canned replies and a stream route. Kept, not computed: asking `upstream == nil` copied the
    /// optional struct out on every request.
    let servesBuiltInRoutes: Bool
    /// The concerns every reply passes through, in order.
    let middleware: MiddlewareChain
    /// Fault specs sent per request, parsed once (see `parsedSpec`).
    private var specCache: [String: FaultSpec] = [:]
    /// What the admin API reads and changes of the transport (offline, held replies); set once it exists.
    private(set) weak var transport: (any TransportControls)?
    /// Who may reach the admin API at all (same origin, known hosts); set with the transport, which knows the port.
    private var adminGate: AdminGate?

    init(configuration: UnderstudyServer.Configuration, faults: FaultController, journal: Journal) {
        router = Router(catalog: configuration.catalog, tokens: TokenService(secret: configuration.tokenSecret),
                        now: configuration.clock)
        self.faults = faults
        self.journal = journal
        remoteControl = RemoteControlPolicy(host: configuration.host, token: configuration.adminToken)
        clock = configuration.clock
        upstream = configuration.upstream
        recorder = Recorder(writer: configuration.record)
        cache = ReplyCache(routes: router.cache)
        replay = configuration.replay.map(ReplayRoutes.init)
        servesBuiltInRoutes = replay == nil && upstream == nil
        feed = LiveFeed(faults: faults, journal: journal)
        streams = StreamSource(catalog: configuration.catalog,
                               maximumUnflushedBytes: configuration.maximumStreamBacklogBytes)
        middleware = MiddlewareChain(journal: journal, feed: feed, recorder: recorder, requestLog: configuration.requestLog)
    }

    /// Connects the transport under the pipeline, once it is bound: `ports` are its origins' ports by scheme.
    func attach(_ transport: any TransportControls, configuration: UnderstudyServer.Configuration, ports: [String: Int]) {
        self.transport = transport
        adminGate = AdminGate(boundHost: configuration.host, ports: ports, allowedHosts: configuration.allowedHosts)
        feed.offlineMillisecondsLeft = { [weak transport] in transport?.offlineMillisecondsLeft ?? 0 }
    }

    /// Decides everything about `request` before a byte is written; or first, when its route needs an index not built
    /// yet, that it waits for it. `indexesReady`: the request waited already (or its indexes were kept by the time
    /// it would have), so it is planned now.
    func plan(for request: HTTPRequest, stopping: Bool, indexesReady: Bool = false) -> Planned {
        // Once stopping, a request arriving on a kept-alive connection is not served: the connection closes with no
        // reply, which HTTP clients retry on a fresh connection (libcurl does so itself). Otherwise a client whose
        // connection cache outlives this server could be answered by it after another server took the port.
        if stopping {
            var draft = ReplyDraft(request: request, response: HTTPResponse(status: 503))
            draft.delivery = .empty
            return .reply(ReplyPlan(draft))
        }
        var plan: ReplyDraft
        if !request.isAdmin, let cached = servesBuiltInRoutes
                    ? cache.reply(for: request, rulesInstalled: faults.hasRules, faultReply: cannedFault)
                    : cache.replayReply(for: request, rulesInstalled: faults.hasRules) {
            // The fast path: a reply built once for what decides these bytes.
            plan = ReplyDraft(request: request, response: HTTPResponse(status: cached.reply.status), session: request.session)
            plan.canned = cached.reply
            plan.applied = cached.reply.fault
            plan.delayMilliseconds = cached.delayMilliseconds
        } else {
            // Past the fast path, the query is decoded once for everything that reads it.
            let request = request.decodingQuery()
            if request.isAdmin {
                // The admin API: same origin and a known Host, then the admin token, then its routes.
                plan = adminPlan(for: request)
            } else if Pipeline.asksForFault(request), let refusal = remoteControl.refusal(for: request, admin: false) {
                // Everything else: the token for asked-for faults, then the indexes the route needs, then one fault
                // decision and routing.
                plan = ReplyDraft(request: request, response: refusal.response)
            } else if !indexesReady, servesBuiltInRoutes, let groundwork = router.groundwork(for: request) {
                // Built off the loop while only this request waits; a cached reply never gets here.
                return .awaitingIndexes(groundwork)
            } else {
                plan = faultedPlan(for: request)
            }
        }
        // Headers every reply gets (fault applied, rate limits, CORS, ETag/304), in order.
        middleware.prepare(&plan)
        if request.leavesBodyUnread {
            // The transport drops what came of a body evhttp does not read; nothing after it is parsed either.
            plan.dropsUnreadBody = true
            plan.response.headers.add("Connection", "close")
        }
        return .reply(ReplyPlan(plan))
    }

    /// Tells every middleware how a reply went, once the transport is done with it.
    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        middleware.completed(plan, outcome)
    }

    private func adminPlan(for incoming: HTTPRequest) -> ReplyDraft {
        var plan = ReplyDraft(request: incoming, response: HTTPResponse(status: 200))
        plan.isAdmin = true
        // Same origin and a known Host first, then the token: a foreign page is refused whatever it presents,
        // before the body is parsed or anything changes. The control room's page itself needs no token (it asks
        // for one); everything it then does, the feed included, does.
        if let refusal = adminGate?.refusal(for: incoming) {
            plan.response = refusal.response
        } else if let page = ControlRoomAssets.response(for: incoming, tokenRequired: remoteControl.token != nil) {
            plan.response = page
        } else if let refusal = remoteControl.refusal(for: incoming, admin: true) {
            plan.response = refusal.response
        } else if ControlRoomAssets.isFeed(incoming.path) {
            do throws(APIError) {
                plan.response = try ControlRoomAssets.feedHead(for: incoming)
                if incoming.method == "GET" { plan.delivery = .feed(try FeedRequest.parse(incoming)) }
            } catch {
                plan.response = error.response
            }
        } else if let transport {
            plan.response = AdminRoutes(faults: faults, journal: journal, transport: transport,
                                        recording: recordingControls).respond(to: incoming)
        } else {
            plan.response = APIError(503, "The admin API is not ready yet").response
        }
        return plan
    }

    /// Per-request specs repeat (a test sends the same header again and again), so parsed ones are kept.
    func parsedSpec(_ text: String) throws(FaultSpecError) -> FaultSpec {
        if let known = specCache[text] { return known }
        let spec = try FaultSpec(parsing: text)
        if specCache.count >= 256 { specCache.removeAll(keepingCapacity: true) }
        specCache[text] = spec
        return spec
    }

    /// The reply to a fault header that asks only for an error status, built once per header text by the cache;
    /// nil for any other spec, an invalid one, or when fault headers need the admin token (the pipeline answers
    /// those).
    private func cannedFault(_ text: String) -> CannedReply? {
        guard remoteControl.token == nil, remoteControl.isLoopback,
              let spec = try? parsedSpec(text), spec.isPlainErrorStatus, let status = spec.status else { return nil }
        let response = FaultedResponses.status(status, spec: spec, nowSeconds: clock())
        guard case .bytes(let bytes) = response.body else { return nil }
        return CannedReply(status: status, headers: response.headers.fields + [(FaultHeaders.applied, spec.text)],
                           body: SharedBytes(bytes), etag: nil, fault: spec.text)
    }
}
