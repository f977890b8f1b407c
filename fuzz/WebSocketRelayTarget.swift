// libFuzzer target: what a relayed socket makes of its upstream's bytes (`WebSocketRelay`), the answer to the upgrade
// and the frames after it, from an upstream nobody here controls. The input's first byte picks where the rest is cut
// into reads, and whether the connection then ends.
func fuzzWebSocketRelay(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0, let upstream = try? Upstream(url: "http://upstream.test") else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let client = HTTPRequest(method: "GET", target: "/ws/live", headers: [
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    ])
    let request = UpstreamRequest(forwarding: client, to: upstream, clientAddress: nil)
    let ends = control & 1 == 1
    func read(step: Int) -> [WebSocketRelay.Event] {
        var relay = WebSocketRelay(forwarding: request, maximumMessageBytes: 1_024)
        var events: [WebSocketRelay.Event] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + step)
            events += relay.receive(Array(bytes[start..<end]))
            start = end
        }
        if ends { events += relay.ended(failure: nil) }
        return events
    }
    let whole = read(step: max(1, bytes.count))
    // However the upstream's reads cut its bytes, the relay decides the same.
    precondition(read(step: Int(control >> 1) + 1) == whole, "chunking changed what the relay decided")

    // One answer at most, first; nothing after a refusal or a failure; messages only after an acceptance.
    var answered = false
    for (index, event) in whole.enumerated() {
        switch event {
        case .accepted:
            precondition(index == 0, "an acceptance after other events")
            answered = true
        case .refused(let status, _, let body):
            precondition(index == 0 && index == whole.count - 1, "a refusal that is not the only event")
            precondition(status != 101 && (100...599).contains(status), "a refusal with status \(status)")
            precondition(body.count <= WebSocketRelay.maximumRefusalBytes, "a refusal's body over the limit")
        case .failed:
            precondition(index == whole.count - 1, "events after a failure")
        case .message, .ping, .close, .broke:
            precondition(answered, "a frame before the upstream accepted")
        }
    }
    return 0
}
