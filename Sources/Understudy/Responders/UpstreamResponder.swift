import UnderstudyOpenAPI

/// Forwards every request to the upstream (`--upstream`): the pipeline decides how the request's faults act on the
/// reply (`ProxyPlan`), and `ProxiedReply` carries it out as the upstream's bytes arrive. What is forwarded is
/// recorded by the `Recorder` once the reply is over (`RecordingMiddleware`). With a document (`--spec`), every
/// exchange is held to it (`ContractWatch`): the request before it is forwarded, the reply as it comes back.
final class UpstreamResponder: Responder {
    let upstream: Upstream
    let recorder: Recorder
    let contract: ContractWatch?
    /// Where relayed sockets are listed, so the admin API can push to them and close them.
    let sockets: WebSocketHub
    /// What sends a request upstream, once the transport is bound (`attach`).
    private weak var transport: (any TransportControls)?
    /// Monotonic milliseconds, for an exchange that never started.
    private let monotonicMilliseconds: () -> Double

    init(upstream: Upstream, recorder: Recorder, contract: ContractWatch? = nil, sockets: WebSocketHub,
         monotonicMilliseconds: @escaping () -> Double) {
        self.upstream = upstream
        self.recorder = recorder
        self.contract = contract
        self.sockets = sockets
        self.monotonicMilliseconds = monotonicMilliseconds
    }

    func attach(_ transport: any TransportControls) {
        self.transport = transport
    }

    /// An upgrade is relayed as a socket, whose faults act on its messages; anything else is known once the
    /// upstream answers.
    func kind(of request: HTTPRequest) -> RequestKind {
        request.asksForWebSocket ? .socket : .forwarded
    }

    /// The upstream's headers are its own; its errors (502, 504) and the document's mocked answers add no
    /// DummyJSON counters either.
    var sendsRateLimitWindow: Bool { false }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        // An upgrade is checked here as any socket's is, then relayed once the upstream accepts it too. A document
        // describes no socket's messages, so the contract does not hold them.
        if request.asksForWebSocket {
            var plan = WebSocketPlan(relayingTo: String(request.path))
            plan.faults = WebSocketFaults(fault)
            plan.seed = seed
            plan.session = request.session
            return WebSocketEndpoints.accept(request, plan: plan)
        }
        guard let contract else { return .forward }
        // A path the backend has not shipped is the document's to answer; nothing is forwarded.
        if contract.isMocked(request) {
            let (operation, violations) = contract.check(request)
            contract.record(request, operation: operation, status: 0, violations: violations, mocked: true)
            var response = contract.mocked(request, seed: seed)
            if !violations.isEmpty { response.headers.add(ContractWatch.violationsHeader, ContractWatch.headerValue(violations)) }
            return .response(response)
        }
        guard contract.failsOnViolations else { return .forward }
        let (operation, violations) = contract.check(request)
        guard !violations.isEmpty else { return .forward }
        contract.record(request, operation: operation, status: 422, violations: violations)
        return .response(ContractWatch.refusal(violations, status: 422, operation: operation))
    }


    /// The delivery of a forwarded request: it sends the request upstream on its first turn (after any delay).
    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? {
        if case .socket(let socketPlan) = plan.delivery {
            let forwarded = UpstreamRequest(forwarding: plan.request, to: upstream, clientAddress: clientAddress())
            let leg = WebSocketUpstreamLeg(
                relay: WebSocketRelay(forwarding: forwarded, maximumMessageBytes: socketPlan.maximumMessageBytes),
                clientHeaders: plan.response.headers, upstreamURL: upstream.url, timeoutSeconds: upstream.timeoutSeconds,
                records: recorder.isRecording) { [weak transport] in transport?.openUpstreamSocket() }
            return WebSocketSession(plan: socketPlan, source: nil, hub: sockets, leg: leg)
        }
        guard case .proxy(let proxyPlan) = plan.delivery else { return nil }
        let forwarded = UpstreamRequest(forwarding: plan.request, to: upstream, clientAddress: clientAddress())
        let held = contract.flatMap { watch -> ContractPlan? in
            guard let submit = transport?.loopSubmitter else { return nil }
            let (operation, violations) = watch.check(plan.request)
            return ContractPlan(watch: watch, request: plan.request, operation: operation, requestViolations: violations,
                                submit: submit)
        }
        return ProxiedReply(plan: proxyPlan, ownHeaders: plan.response.headers, isHeadRequest: plan.request.method == "HEAD",
                            upstreamURL: upstream.url, contract: held, holdsBack: { [recorder] in recorder.isBehind })
        { [weak transport, recorder, monotonicMilliseconds, held] in
            guard let transport else { return .unsent("the server is stopping", at: monotonicMilliseconds()) }
            let exchange = transport.sendUpstream(forwarded)
            // Kept for a recording, or (smaller bodies) for a snapshot of the last exchanges made later, or for the
            // contract check of a body that streamed.
            exchange.keptBodyLimit = recorder.isRecording || held != nil ? UpstreamExchange.recordedBodyLimit : UpstreamExchange.snapshotBodyLimit
            return exchange
        }
    }
}
