/// The frames of one side of a WebSocket read as their bytes arrive (RFC 6455 §5), into whole messages, pings,
/// pongs and the close, or the failure that ends the connection, with the close code §7.4.1 names for it.
///
/// A value: `receive` (or `append`, then `next` until nil) takes what a read returned and hands back what it
/// completed. Fragmented messages are reassembled, and control frames between their fragments are answered as they
/// come. Nothing is read after a close frame or a failure. The payloads held are one message's, up to `maximumMessageBytes`, and one frame's.
package struct WebSocketReader {
    /// What the bytes read so far completed.
    package enum Event: Equatable {
        /// A whole text or binary message.
        case message(WebSocketFrame.Opcode, [UInt8])
        case ping([UInt8])
        case pong([UInt8])
        /// The peer's close frame: its code (nil: it gave none, 1005 to an application) and its reason.
        case close(WebSocketCloseCode?, String)
    }

    /// Why the connection fails: the code to close it with, and the reason in words.
    package struct Failure: Error, Equatable {
        package let code: WebSocketCloseCode
        package let reason: String

        package init(code: WebSocketCloseCode, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    /// The largest message taken whole; a longer one fails with 1009.
    package let maximumMessageBytes: Int
    /// Whether frames must be masked (a server reading a client) or must not be (a client reading a server).
    package let readsClientFrames: Bool
    private var buffer: [UInt8] = []
    /// The most storage `buffer` keeps once all of it is read.
    static let keptCapacity = 4 << 10
    /// How much of `buffer` is read.
    private var consumed = 0
    /// The message being reassembled from its fragments.
    private var partial: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?
    package private(set) var failure: Failure?
    /// Whether the peer's close frame has been read.
    package private(set) var sawClose = false

    package init(maximumMessageBytes: Int, readsClientFrames: Bool = true) {
        self.maximumMessageBytes = maximumMessageBytes
        self.readsClientFrames = readsClientFrames
    }

    /// Takes the bytes of a read; returns what they complete, in order. After a close frame or a failure, nothing.
    package mutating func receive(_ bytes: [UInt8]) -> [Event] {
        append(bytes)
        var events: [Event] = []
        while let event = next() { events.append(event) }
        return events
    }

    /// Takes the bytes of a read, for `next()` to hand out what they complete. After a close frame or a failure,
    /// they are dropped.
    package mutating func append(_ bytes: [UInt8]) {
        guard failure == nil, !sawClose else { return }
        buffer += bytes
    }

    /// The next event the bytes taken so far complete; nil once more bytes are needed, or after a close frame or a
    /// failure (`failure` says which). One at a time, with no array: a socket's turn reads every message this way.
    package mutating func next() -> Event? {
        while failure == nil, !sawClose {
            switch nextFrame() {
            case .failure(let failed):
                failure = failed
            case .success(nil):
                compact()
                return nil
            case .success(let frame?):
                if let event = take(frame) { return event }
            }
        }
        compact()
        return nil
    }

    /// The next whole frame in the buffer, unmasked; nil until all of it has arrived.
    private mutating func nextFrame() -> Result<WebSocketFrame?, Failure> {
        let available = buffer.count - consumed
        guard available >= 2 else { return .success(nil) }
        let first = buffer[consumed], second = buffer[consumed + 1]
        guard first & 0x70 == 0 else { return fail(.protocolError, "a reserved bit is set, and no extension was agreed") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            return fail(.protocolError, "opcode \(first & 0x0F) is reserved")
        }
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        if masked != readsClientFrames {
            return fail(.protocolError, readsClientFrames ? "a client's frame must be masked" : "a server's frame must not be masked")
        }
        var header = 2
        var length = UInt64(second & 0x7F)
        if length == 126 || length == 127 {
            let extra = length == 126 ? 2 : 8
            guard available >= 2 + extra else { return .success(nil) }
            length = buffer[(consumed + 2)..<(consumed + 2 + extra)].reduce(0) { $0 << 8 | UInt64($1) }
            header += extra
            if length >> 63 != 0 { return fail(.protocolError, "a frame's 64-bit length has its top bit set") }
        }
        if opcode.isControl {
            guard fin else { return fail(.protocolError, "a control frame must not be fragmented") }
            guard length <= WebSocketFrame.maximumControlPayload else {
                return fail(.protocolError, "a control frame's payload is over 125 bytes")
            }
        } else if UInt64(partial?.bytes.count ?? 0) + length > UInt64(maximumMessageBytes) {
            return fail(.messageTooBig, "a message over \(maximumMessageBytes) bytes")
        }
        let maskStart = consumed + header
        if masked { header += 4 }
        guard available >= header, UInt64(available - header) >= length else { return .success(nil) }
        let start = consumed + header
        var payload = Array(buffer[start..<(start + Int(length))])
        if masked {
            let key = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: maskStart, as: UInt32.self) }
            WebSocketReader.unmask(&payload, key: key)
        }
        consumed = start + Int(length)
        return .success(WebSocketFrame(fin: fin, opcode, payload))
    }

    /// What a frame means, given the message under way.
    private mutating func take(_ frame: WebSocketFrame) -> Event? {
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            return close(frame.payload)
        case .continuation:
            guard var message = partial else {
                failure = Failure(code: .protocolError, reason: "a continuation frame with no message to continue")
                return nil
            }
            message.bytes += frame.payload
            guard frame.fin else {
                partial = message
                return nil
            }
            partial = nil
            return complete(message.opcode, message.bytes)
        case .text, .binary:
            guard partial == nil else {
                failure = Failure(code: .protocolError, reason: "a new message began before the last one ended")
                return nil
            }
            guard frame.fin else {
                partial = (frame.opcode, frame.payload)
                return nil
            }
            return complete(frame.opcode, frame.payload)
        }
    }

    private mutating func complete(_ opcode: WebSocketFrame.Opcode, _ bytes: [UInt8]) -> Event? {
        if opcode == .text, !UTF8Check.isValid(bytes) {
            failure = Failure(code: .invalidPayload, reason: "a text message that is not UTF-8")
            return nil
        }
        return .message(opcode, bytes)
    }

    private mutating func close(_ payload: [UInt8]) -> Event? {
        guard !payload.isEmpty else {
            sawClose = true
            return .close(nil, "")
        }
        guard payload.count >= 2 else {
            failure = Failure(code: .protocolError, reason: "a close frame of one byte")
            return nil
        }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.maySend else {
            failure = Failure(code: .protocolError, reason: "close code \(code.rawValue) is not one a peer may send")
            return nil
        }
        let reason = payload.dropFirst(2)
        guard UTF8Check.isValid(reason) else {
            failure = Failure(code: .invalidPayload, reason: "a close reason that is not UTF-8")
            return nil
        }
        sawClose = true
        return .close(code, String(decoding: reason, as: UTF8.self))
    }

    private func fail(_ code: WebSocketCloseCode, _ reason: String) -> Result<WebSocketFrame?, Failure> {
        .failure(Failure(code: code, reason: reason))
    }

    /// XORs `bytes` with the four-byte `key` (as it lies in memory), eight bytes at a time: every client frame is
    /// unmasked here, so this is a socket's hottest loop.
    package static func unmask(_ bytes: inout [UInt8], key: UInt32) {
        bytes.withUnsafeMutableBytes { bytes in
            // The key twice over: the same in either byte order, since both halves are the key.
            let wide = UInt64(key) | UInt64(key) << 32
            var index = 0
            while index + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ wide
                bytes.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
                index += 8
            }
            withUnsafeBytes(of: key) { key in
                while index < bytes.count {
                    bytes[index] ^= key[index & 3]
                    index += 1
                }
            }
        }
    }

    /// Drops what is read, once it is most of the buffer (never per frame: that would move the rest each time).
    private mutating func compact() {
        if consumed == buffer.count {
            // All read (the usual case: reads hold whole frames): emptied, its storage kept for the next read
            // unless a large message grew it, which an idle socket should not hold on to.
            if buffer.capacity <= WebSocketReader.keptCapacity {
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer = []
            }
            consumed = 0
            return
        }
        guard consumed > 0, consumed * 2 >= buffer.count else { return }
        buffer.removeFirst(consumed)
        consumed = 0
    }
}
