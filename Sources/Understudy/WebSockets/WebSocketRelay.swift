import COpenSSL
import UnderstudyWebSocket

/// A socket forwarded to the upstream (`--upstream`), as decisions on bytes: the upgrade to write there, the
/// upstream's answer read (its 101, or the refusal to pass on to the client), then the upstream's frames read as a
/// client reads a server's. The client's messages go up framed again, masked as a client's must be. The session
/// that owns it does the writing; this value holds no connection.
///
/// Frames are relayed as messages, not bytes: the socket's faults act on whole messages, and a fragmented message is
/// sent on whole. Extensions (permessage-deflate) are not offered upstream, since the frames are rebuilt here.
struct WebSocketRelay {
    /// What the upstream's bytes said.
    enum Event: Equatable {
        /// It accepted: the headers its 101 carried (its subprotocol, its own fields).
        case accepted(HTTPHeaders)
        /// It refused the upgrade with a reply of its own, whole.
        case refused(status: Int, headers: HTTPHeaders, body: [UInt8])
        /// It gave no usable answer: why, in words.
        case failed(String)
        case message(WebSocketFrame.Opcode, [UInt8])
        case ping([UInt8])
        /// Its close frame: the code (nil when it gave none) and reason.
        case close(WebSocketCloseCode?, String)
        /// It broke the protocol: what it did, and the code the socket to it closes with.
        case broke(WebSocketReader.Failure)
    }

    /// How a refusal's body ends.
    private enum Framing {
        case length(Int)
        case chunked
        /// With the connection.
        case close
    }

    private enum State {
        /// Reading its answer's head.
        case answering
        /// Reading a refusal's body: the head, and how its end is known.
        case refusing(status: Int, headers: HTTPHeaders, framing: Framing)
        case open
        case done
    }

    /// The upgrade request, to write once connected.
    let upgrade: [UInt8]
    private let key: String
    private var state = State.answering
    private var pending: [UInt8] = []
    private var reader: WebSocketReader

    /// The longest answer head read, and the most of a refusal's body kept.
    static let maximumHeadBytes = 16 << 10
    static let maximumRefusalBytes = 1 << 20

    /// The relay of `request`, the client's upgrade as it goes upstream (hop-by-hop fields already dropped).
    init(forwarding request: UpstreamRequest, maximumMessageBytes: Int) {
        var head = "GET \(request.target) HTTP/1.1\r\n"
        for field in request.headers where field.name.lowercased() != "sec-websocket-extensions" {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        upgrade = Array(head.utf8)
        key = request.headers["Sec-WebSocket-Key"] ?? ""
        reader = WebSocketReader(maximumMessageBytes: maximumMessageBytes, readsClientFrames: false)
    }

    /// Takes the bytes the upstream sent; returns what they said, in order.
    mutating func receive(_ bytes: [UInt8]) -> [Event] {
        switch state {
        case .answering:
            pending += bytes
            return readHead()
        case .refusing(let status, let headers, let framing):
            pending += bytes
            switch framing {
            case .length(let length) where pending.count >= length:
                return refused(status, headers, body: Array(pending.prefix(length)))
            case .chunked:
                if let body = WebSocketRelay.dechunked(pending) { return refused(status, headers, body: body) }
            default:
                break
            }
            guard pending.count <= WebSocketRelay.maximumRefusalBytes else {
                state = .done
                return [.failed("its refusal's body is over \(WebSocketRelay.maximumRefusalBytes >> 20) MiB")]
            }
            return []
        case .open:
            var events = reader.receive(bytes).compactMap { event -> Event? in
                switch event {
                case .message(let opcode, let payload): .message(opcode, payload)
                case .ping(let payload): .ping(payload)
                case .pong: nil
                case .close(let code, let reason): .close(code, reason)
                }
            }
            if let failure = reader.failure {
                state = .done
                events.append(.broke(failure))
            } else if reader.sawClose {
                state = .done
            }
            return events
        case .done:
            return []
        }
    }

    /// The upstream's connection ended (`failure`: why, when it failed): a refusal read until the end is whole; an
    /// answer cut short is a failure. Nothing for an open socket: its owner mirrors the drop.
    mutating func ended(failure: String?) -> [Event] {
        switch state {
        case .answering:
            state = .done
            return [.failed(failure ?? "it closed the connection without answering the upgrade")]
        case .refusing(let status, let headers, let framing):
            guard case .close = framing, failure == nil else {
                state = .done
                return [.failed(failure ?? "it closed the connection mid-reply")]
            }
            return refused(status, headers, body: pending)
        case .open, .done:
            state = .done
            return []
        }
    }

    /// A frame for the upstream: `payload` as `opcode`, masked with a fresh key.
    static func frame(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) -> [UInt8] {
        // RFC 6455 §10.3 asks for a key from a strong source of entropy: OpenSSL's generator, which draws in user
        // space (the standard library's makes a getrandom call each time, measured as a relay's hottest syscall).
        var mask: [UInt8] = [0, 0, 0, 0]
        if RAND_bytes(&mask, 4) != 1 {
            let key = UInt32.random(in: .min ... .max)
            mask = [UInt8(truncatingIfNeeded: key >> 24), UInt8(truncatingIfNeeded: key >> 16),
                    UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key)]
        }
        return WebSocketFrame(opcode, payload).encoded(mask: mask)
    }

    /// A close frame for the upstream, masked.
    static func close(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        let frame = WebSocketFrame.close(code, reason: reason)
        return WebSocketRelay.frame(frame.opcode, frame.payload)
    }

    private mutating func readHead() -> [Event] {
        let found = pending.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A])
        // Over the limit whether its end came in this read or not, so how the reads cut it changes nothing.
        guard let end = found, end.lowerBound <= WebSocketRelay.maximumHeadBytes else {
            guard found == nil, pending.count <= WebSocketRelay.maximumHeadBytes else {
                state = .done
                return [.failed("its answer's head is over \(WebSocketRelay.maximumHeadBytes >> 10) KiB")]
            }
            return []
        }
        let lines = String(decoding: pending[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let rest = Array(pending[end.upperBound...])
        pending = []
        let statusLine = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]),
              (100...599).contains(status) else {
            state = .done
            return [.failed("it answered the upgrade with something that is not HTTP")]
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingJSWhitespace())
        }
        guard status == 101 else {
            let framing: Framing = if headers["Transfer-Encoding"] != nil {
                .chunked
            } else if let length = headers["Content-Length"] {
                Int(length.trimmingJSWhitespace()).map(Framing.length) ?? .close
            } else {
                // RFC 9112 §6.3: no length and no chunking, the body ends with the connection (none for a 1xx,
                // 204 or 304).
                (100..<200).contains(status) || status == 204 || status == 304 ? .length(0) : .close
            }
            // The client gets the body whole, with a length of its own.
            headers.remove("Transfer-Encoding")
            headers.remove("Content-Length")
            state = .refusing(status: status, headers: headers, framing: framing)
            return receive(rest)
        }
        guard WebSocketHandshake.tokens(headers["Upgrade"]).contains("websocket"),
              headers["Sec-WebSocket-Accept"] == WebSocketHandshake.accept(key: key) else {
            state = .done
            return [.failed("its 101 did not accept this upgrade (Upgrade or Sec-WebSocket-Accept is wrong)")]
        }
        state = .open
        return [.accepted(headers)] + receive(rest)
    }

    private mutating func refused(_ status: Int, _ headers: HTTPHeaders, body: [UInt8]) -> [Event] {
        state = .done
        pending = []
        return [.refused(status: status, headers: headers, body: body)]
    }

    /// A chunked body's bytes (RFC 9112 §7.1), once its last chunk and the line after it have come; nil until then.
    /// Extensions are skipped; a trailer field counts as the closing line (a refusal has none worth waiting for).
    static func dechunked(_ bytes: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstRange(of: [0x0D, 0x0A]) {
            let line = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
            let sizeText = String(line.prefix { $0 != ";" }).trimmingJSWhitespace()
            guard let size = Int(sizeText, radix: 16), size >= 0 else { return nil }
            let start = lineEnd.upperBound
            guard size > 0 else { return bytes[start...].firstRange(of: [0x0D, 0x0A]) == nil ? nil : body }
            guard bytes.count >= start + size + 2 else { return nil }
            body += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return nil
    }
}
