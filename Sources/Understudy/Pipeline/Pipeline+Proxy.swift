extension Pipeline {
    /// How a forwarded request's faults act: a connection fault needs no upstream (nothing is forwarded), every
    /// other body fault goes into the delivery, which applies it to the upstream's reply as it arrives.
    static func forwarded(_ spec: FaultSpec, sendsBody: Bool, skipped: Set<String>, garbage: [UInt8],
                          scheduleSeed: UInt64) -> ReplyPlan.Delivery {
        switch spec.connection {
        case .empty?: return .empty
        case .reset(afterHeaders: false)?: return .reset(afterHeaders: false)
        case .hang?: return .hang
        case .garbage?: return .garbage(garbage)
        case .reset(afterHeaders: true)?: return .proxy(ProxyPlan(resetAfterHead: true))
        case nil: break
        }
        guard sendsBody else { return .proxy(ProxyPlan()) }
        let toStream = spec.text(skipping: skipped.union(spec.present(FaultSpec.bodyDirectives)))
        let toBody = spec.text(skipping: skipped.union(spec.present(FaultSpec.streamDirectives)))
        return .proxy(ProxyPlan(truncation: spec.truncation, pacing: spec.pacing, stall: spec.stall,
                                scheduleSeed: scheduleSeed, malformed: skipped.contains("malformed") ? nil : spec.malformed, stream: spec.stream,
                                appliedToStream: toStream.isEmpty ? nil : toStream,
                                appliedToBody: toBody.isEmpty ? nil : toBody))
    }

    /// The delivery of a forwarded request: it sends the request upstream on its first turn (after any delay).
    func forwardedReply(_ plan: ReplyPlan, _ proxyPlan: ProxyPlan, clientAddress: String?) -> (any Delivery)? {
        guard let upstream else { return nil }
        let forwarded = UpstreamRequest(forwarding: plan.request, to: upstream, clientAddress: clientAddress)
        return ProxiedReply(plan: proxyPlan, ownHeaders: plan.response.headers,
                            isHeadRequest: plan.request.method == "HEAD", upstreamURL: upstream.url) { [weak transport, recorder] in
            guard let transport else { return .unsent("the server is stopping") }
            let exchange = transport.sendUpstream(forwarded)
            // Kept for a recording, or (smaller bodies) for a snapshot of the last exchanges made later.
            exchange.keptBodyLimit = recorder.isRecording ? UpstreamExchange.recordedBodyLimit : UpstreamExchange.snapshotBodyLimit
            return exchange
        }
    }

    /// What the admin API reads and changes of forwarding and recording.
    var recordingControls: RecordingControls {
        RecordingControls(upstream: upstream, recorder: recorder, replayedRoutes: replay?.routes)
    }
}
