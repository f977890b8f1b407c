/// One RFC 6455 frame: whether it ends its message, what it carries, and its payload (unmasked).
package struct WebSocketFrame: Equatable, Sendable {
    /// What a frame carries (RFC 6455 §5.2); the other values are reserved and fail the connection.
    package enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong: at most 125 bytes, never fragmented, and allowed in the middle of a message.
        package var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// The most a control frame's payload may hold (§5.5).
    package static let maximumControlPayload = 125

    package var fin: Bool
    package var opcode: Opcode
    package var payload: [UInt8]

    package init(fin: Bool = true, _ opcode: Opcode, _ payload: [UInt8] = []) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// A close frame with `code` and `reason` (the reason cut, on a character boundary, to fit 123 bytes).
    package static func close(_ code: WebSocketCloseCode, reason: String = "") -> WebSocketFrame {
        var bytes = Array(reason.utf8)
        if bytes.count > maximumControlPayload - 2 {
            var cut = maximumControlPayload - 2
            // Back to the start of a UTF-8 sequence, so the reason stays valid text.
            while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            bytes = Array(bytes[..<cut])
        }
        return WebSocketFrame(.close, [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + bytes)
    }

    /// The frame's bytes: unmasked as a server sends them (§5.1), or masked with `mask` (four bytes) as a client
    /// must; the length in its shortest encoding.
    package func encoded(mask: [UInt8]? = nil) -> [UInt8] {
        let mask = mask?.count == 4 ? mask : nil
        let count = payload.count
        let lengthBytes = count < 126 ? 0 : count < 65_536 ? 2 : 8
        let headBytes = 2 + lengthBytes + (mask == nil ? 0 : 4)
        // Written once into storage sized up front: a socket frames every message it sends.
        return [UInt8](unsafeUninitializedCapacity: headBytes + count) { bytes, initialized in
            bytes[0] = (fin ? 0x80 : 0) | opcode.rawValue
            bytes[1] = (mask == nil ? 0 : 0x80) | (lengthBytes == 0 ? UInt8(count) : lengthBytes == 2 ? 126 : 127)
            for index in 0..<lengthBytes {
                bytes[2 + index] = UInt8(truncatingIfNeeded: UInt64(count) >> UInt64((lengthBytes - 1 - index) * 8))
            }
            payload.withUnsafeBufferPointer { payload in
                if let mask {
                    for index in 0..<4 { bytes[2 + lengthBytes + index] = mask[index] }
                    for index in 0..<count { bytes[headBytes + index] = payload[index] ^ mask[index & 3] }
                } else if count > 0 {
                    (bytes.baseAddress! + headBytes).update(from: payload.baseAddress!, count: count)
                }
            }
            initialized = headBytes + count
        }
    }
}
