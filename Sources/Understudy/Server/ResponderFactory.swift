import UnderstudyOpenAPI
import UnderstudyRecording

/// Builds, once at start, who answers: the responder of the configuration's serving mode, the admin API's, and the
/// pipeline that asks them. The only reader of the mode (`replay`, `upstream`, the catalogue): a new way of
/// answering is a new responder and a line here.
struct ResponderFactory {
    /// What the server keeps of what was built: the pipeline, and what it reads or stops besides it.
    struct Built {
        let pipeline: Pipeline
        /// The recorder of forwarded exchanges (`--record`), which a stopping server flushes.
        let recorder: Recorder
        /// The document's mock (`--spec`), whose state a reset clears.
        let spec: MockEngine?
        /// Connects the transport once it is bound, with its origins' ports by scheme.
        let attach: (any TransportControls, [String: Int]) -> Void
    }

    let configuration: UnderstudyServer.Configuration
    let faults: FaultController
    let journal: Journal
    let monotonicMilliseconds: () -> Double

    func build() -> Built {
        let recorder = Recorder(writer: configuration.record)
        // A document with an upstream holds the upstream's traffic to it, rather than answering in its place.
        let contract = configuration.upstream == nil ? nil : configuration.spec.map { [faults] spec in
            ContractWatch(spec: spec, clock: configuration.clock, seed: { faults.seed })
        }
        let sockets = WebSocketHub(clock: configuration.clock)
        let upstream = configuration.upstream.map {
            UpstreamResponder(upstream: $0, recorder: recorder, contract: contract, sockets: sockets,
                              monotonicMilliseconds: monotonicMilliseconds)
        }
        let replayed = configuration.replay.map(ReplayRoutes.init)
        let engine = contract?.mock ?? configuration.spec?.makeEngine()
        let responder: any Responder
        if let engine, contract == nil {
            responder = SpecResponder(engine: engine, clock: configuration.clock)
        } else if let replayed {
            responder = ReplayResponder(routes: replayed, fallback: upstream, recorder: recorder, sockets: sockets) { [faults] in
                faults.hasRules
            }
        } else if let upstream {
            responder = upstream
        } else {
            let router = Router(catalog: configuration.catalog, tokens: TokenService(secret: configuration.tokenSecret),
                                now: configuration.clock)
            responder = CatalogueResponder(router: router, streams: StreamSource(
                catalog: configuration.catalog, maximumUnflushedBytes: configuration.maximumStreamBacklogBytes),
                sockets: sockets)
        }
        let feed = LiveFeed(faults: faults, journal: journal)
        let remoteControl = RemoteControlPolicy(host: configuration.host, token: configuration.adminToken)
        let admin = AdminResponder(remoteControl: remoteControl, faults: faults, journal: journal, feed: feed,
                                   recording: RecordingControls(upstream: configuration.upstream, recorder: recorder,
                                                                replayedRoutes: replayed?.routes),
                                   spec: engine, contract: contract, sockets: sockets,
                                   boundHost: configuration.host, allowedHosts: configuration.allowedHosts,
                                   maximumFeedBacklogBytes: configuration.maximumStreamBacklogBytes)
        let middleware = MiddlewareChain(journal: journal, feed: feed, recorder: recorder,
                                         requestLog: configuration.requestLog)
        let pipeline = Pipeline(responder: responder, admin: admin, faults: faults, remoteControl: remoteControl,
                                middleware: middleware, clock: configuration.clock,
                                monotonicMilliseconds: monotonicMilliseconds)
        return Built(pipeline: pipeline, recorder: recorder, spec: engine) { transport, ports in
            admin.attach(transport, ports: ports)
            upstream?.attach(transport)
        }
    }
}
