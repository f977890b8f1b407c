import Foundation

/// A WebSocket client written from RFC 6455 apart from the server's own codec, over `RawHTTPConnection`: it opens
/// with a handshake, sends masked frames (or any bytes a test makes up) and reads the server's frames as they are.
final class RawWebSocket {
    /// A frame as the server sent it.
    struct Frame: Equatable {
        let fin: Bool
        let opcode: UInt8
        let masked: Bool
        let payload: [UInt8]
        /// The reserved bits as sent (0x70 of the first byte).
        var rsv: UInt8 = 0

        /// A close frame's code, if it has one.
        var closeCode: Int? {
            opcode == 0x8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
        }
        var text: String { String(decoding: opcode == 0x8 ? Array(payload.dropFirst(2)) : payload, as: UTF8.self) }
    }

    let connection: RawHTTPConnection
    /// The 101's head, or the refusal's.
    let response: RawResponse
    private var buffer: [UInt8] = []

    /// RFC 6455 §1.3's sample key, whose accept value the RFC gives.
    static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    init(port: Int, path: String = "/ws/echo", headers: [String: String] = [:], receiveTimeoutSeconds: Int = 5) throws {
        // The handshake may wait long on a loaded machine; `receiveTimeoutSeconds` is for the frames after it.
        connection = try RawHTTPConnection(port: port, receiveTimeoutSeconds: max(30, receiveTimeoutSeconds))
        defer { connection.setReceiveTimeout(seconds: receiveTimeoutSeconds) }
        var fields = ["Host": "127.0.0.1:\(port)", "Upgrade": "websocket", "Connection": "Upgrade",
                      "Sec-WebSocket-Key": RawWebSocket.sampleKey, "Sec-WebSocket-Version": "13"]
        fields.merge(headers) { $1 }
        let head = fields.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        connection.write("GET \(path) HTTP/1.1\r\n\(head)\r\n")
        // A 101 has no body, and a refusal is read with its Content-Length.
        var bytes: [UInt8] = []
        while RawResponse.headEnd(in: bytes) == nil {
            let chunk = connection.readSome()
            guard !chunk.isEmpty else { break }
            bytes += chunk
        }
        guard let end = RawResponse.headEnd(in: bytes) else {
            response = RawResponse(head: "", body: [])
            return
        }
        let head101 = String(decoding: bytes[..<end], as: UTF8.self)
        buffer = Array(bytes[(end + 4)...])
        if head101.hasPrefix("HTTP/1.1 101") {
            response = RawResponse(head: head101, body: [])
        } else {
            let length = RawResponse.contentLength(head101) ?? 0
            while buffer.count < length {
                let chunk = connection.readSome()
                guard !chunk.isEmpty else { break }
                buffer += chunk
            }
            response = RawResponse(head: head101, body: buffer)
        }
    }

    /// A frame's bytes as a client sends them: masked, with this `mask`.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: [UInt8]? = [1, 2, 3, 4],
                      rsv: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count < 65_536 {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        guard let mask else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    func send(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) {
        connection.write(RawWebSocket.frame(opcode, payload, fin: fin))
    }

    func sendText(_ text: String) {
        send(0x1, Array(text.utf8))
    }

    /// The next frame the server sends; nil when the connection ends (or nothing comes before the timeout).
    func readFrame() -> Frame? {
        while true {
            if let frame = takeFrame() { return frame }
            let chunk = connection.readSome()
            guard !chunk.isEmpty else { return nil }
            buffer += chunk
        }
    }

    /// How the connection ends after the frames read so far, once nothing more is read.
    func readUntilEnd() -> (bytes: [UInt8], ending: RawHTTPConnection.Ending) {
        let rest = connection.readUntilEnd()
        defer { buffer = [] }
        return (buffer + rest.bytes, rest.ending)
    }

    private func takeFrame() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        let masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        if masked { offset += 4 }
        guard buffer.count >= offset + length else { return nil }
        var payload = Array(buffer[offset..<(offset + length)])
        if masked {
            let mask = Array(buffer[(offset - 4)..<offset])
            for index in payload.indices { payload[index] ^= mask[index % 4] }
        }
        let frame = Frame(fin: buffer[0] & 0x80 != 0, opcode: buffer[0] & 0x0F, masked: masked, payload: payload,
                          rsv: buffer[0] & 0x70)
        buffer.removeFirst(offset + length)
        return frame
    }
}
