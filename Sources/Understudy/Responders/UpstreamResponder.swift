/// Forwards every request to the upstream (`--upstream`): the pipeline decides how the request's faults act on the
/// reply (`ProxyPlan`), and `ProxiedReply` carries it out as the upstream's bytes arrive. What is forwarded is
/// recorded by the `Recorder` once the reply is over (`RecordingMiddleware`).
final class UpstreamResponder: Responder {
    let upstream: Upstream
    let recorder: Recorder
    /// What sends a request upstream, once the transport is bound (`attach`).
    private weak var transport: (any TransportControls)?
    /// Monotonic milliseconds, for an exchange that never started.
    private let monotonicMilliseconds: () -> Double

    init(upstream: Upstream, recorder: Recorder, monotonicMilliseconds: @escaping () -> Double) {
        self.upstream = upstream
        self.recorder = recorder
        self.monotonicMilliseconds = monotonicMilliseconds
    }

    func attach(_ transport: any TransportControls) {
        self.transport = transport
    }

    func kind(of request: HTTPRequest) -> RequestKind {
        .forwarded
    }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        .forward
    }

    /// The delivery of a forwarded request: it sends the request upstream on its first turn (after any delay).
    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? {
        guard case .proxy(let proxyPlan) = plan.delivery else { return nil }
        let forwarded = UpstreamRequest(forwarding: plan.request, to: upstream, clientAddress: clientAddress())
        return ProxiedReply(plan: proxyPlan, ownHeaders: plan.response.headers, isHeadRequest: plan.request.method == "HEAD",
                            upstreamURL: upstream.url) { [weak transport, recorder, monotonicMilliseconds] in
            guard let transport else { return .unsent("the server is stopping", at: monotonicMilliseconds()) }
            let exchange = transport.sendUpstream(forwarded)
            // Kept for a recording, or (smaller bodies) for a snapshot of the last exchanges made later.
            exchange.keptBodyLimit = recorder.isRecording ? UpstreamExchange.recordedBodyLimit : UpstreamExchange.snapshotBodyLimit
            return exchange
        }
    }
}
