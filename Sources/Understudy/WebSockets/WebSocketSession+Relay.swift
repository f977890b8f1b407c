import UnderstudyWebSocket

/// A relayed socket's upstream half: what the upstream sends reaches the client through the socket's faults, as an
/// endpoint's messages do; its pings are answered, its close is answered and passed on after the messages before
/// it, and its connection dropping with no close drops the client's too, so the client sees what the upstream did.
extension WebSocketSession {
    /// The steps for what the upstream sent since the last turn (`earlier`: what came behind its 101).
    mutating func relay(_ earlier: [WebSocketRelay.Event], now: Double) -> [DeliveryStep] {
        // The leg is changed where it is: a copy taken out and put back would hold its buffers twice, and each turn
        // would copy them (measured: a third of a relay's time).
        guard leg != nil else { return [] }
        let (events, dropped) = leg!.take(earlier, now: now)
        for event in events {
            switch event {
            case .message(let opcode, let payload):
                sender.enqueue(opcode, payload, now: now)
            case .ping(let payload):
                leg?.sendControl(WebSocketRelay.frame(.pong, payload))
            case .close(let code, let reason):
                leg?.sendControl(WebSocketRelay.close(code ?? .normal, reason: reason))
                sender.finish(code ?? .normal, reason: reason, now: now)
            case .broke(let failure):
                leg?.sendControl(WebSocketRelay.close(failure.code, reason: failure.reason))
                // A message over the relay's limit is no fault of the upstream's: the client hears 1009 and the limit.
                let tooBig = failure.code == .messageTooBig
                sender.finish(tooBig ? .messageTooBig : WebSocketSession.badGateway,
                              reason: tooBig ? "the upstream sent \(failure.reason), over the relay's limit"
                                  : "the upstream broke the protocol: \(failure.reason)", now: now)
            case .accepted, .refused, .failed:
                break
            }
        }
        // The client sees the upstream's drop as its own: no close frame, the connection ends.
        return dropped && conversation.state != .closed ? [.closeWhenFlushed(reset: false)] : []
    }

    /// 1014, Bad Gateway (IANA's registry of close codes): the upstream misbehaved.
    static let badGateway = WebSocketCloseCode(rawValue: 1014)
}
