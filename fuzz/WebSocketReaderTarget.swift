import UnderstudyWebSocket

// libFuzzer target: the RFC 6455 frame reader the server's sockets and the client's share. The input's first byte
// picks the side (a server reading masked client frames, or a client reading unmasked server frames) and where the
// rest is split into reads; the rest is the bytes on the wire.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let readsClientFrames = control & 1 == 0
    // Small enough that a fuzzer reaches the 1009 refusal; large enough for a fragmented message or two.
    let maximum = 1_024
    var whole = WebSocketReader(maximumMessageBytes: maximum, readsClientFrames: readsClientFrames)
    let expected = whole.receive(bytes)

    // However a socket's reads cut the bytes, the reader completes the same events and fails the same way.
    var split = WebSocketReader(maximumMessageBytes: maximum, readsClientFrames: readsClientFrames)
    var events: [WebSocketReader.Event] = []
    let step = Int(control >> 1) + 1
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + step)
        events += split.receive(Array(bytes[start..<end]))
        start = end
    }
    precondition(events == expected, "chunking changed the events")
    precondition(split.failure == whole.failure, "chunking changed the failure")
    precondition(split.sawClose == whole.sawClose, "chunking changed whether the close was read")
    precondition(whole.failure == nil || !whole.sawClose, "a reader both failed and read a close")

    // What the reader hands out keeps the RFC's bounds, and its UTF-8 check agrees with the standard library's.
    for event in expected {
        switch event {
        case .message(let opcode, let payload):
            precondition(opcode == .text || opcode == .binary, "a message with opcode \(opcode)")
            precondition(payload.count <= maximum, "a message over the limit")
            if opcode == .text { precondition(isUTF8(payload), "a text message that is not UTF-8") }
        case .ping(let payload), .pong(let payload):
            precondition(payload.count <= WebSocketFrame.maximumControlPayload, "a control payload over 125 bytes")
        case .close(let code, _):
            precondition(code?.maySend ?? true, "a close code a peer may not send")
        }
    }
    // UTF-8's validity is local, so the check is held to the library's on every run of up to 4 bytes that starts
    // past ASCII in the input's first KiB (masked frames would keep a fuzzer from ever showing it a surrogate or an
    // overlong form inside a message).
    let head = bytes.prefix(1_024)
    for start in head.indices where head[start] >= 0x80 {
        for end in (start + 1)...min(start + 4, head.endIndex) {
            let run = head[start..<end]
            precondition(UTF8Check.isValid(run) == isUTF8(run), "UTF8Check and the standard library disagree on \(Array(run))")
        }
    }

    // Each event, written back as the other side would send it, reads back as the same event.
    let mask: [UInt8]? = readsClientFrames ? [control, 0x5A, 0xA5, 0x3C] : nil
    var again = WebSocketReader(maximumMessageBytes: maximum, readsClientFrames: readsClientFrames)
    for event in expected {
        let frame: WebSocketFrame
        switch event {
        case .message(let opcode, let payload): frame = WebSocketFrame(opcode, payload)
        case .ping(let payload): frame = WebSocketFrame(.ping, payload)
        case .pong(let payload): frame = WebSocketFrame(.pong, payload)
        case .close(let code?, let reason): frame = .close(code, reason: reason)
        case .close(nil, _): frame = WebSocketFrame(.close)
        }
        precondition(again.receive(frame.encoded(mask: mask)) == [event], "an event did not survive its own encoding")
    }
    return 0
}

/// The standard library's verdict: its UTF-8 parser reads every scalar without an error.
private func isUTF8<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid: continue
        case .emptyInput: return true
        case .error: return false
        }
    }
}
