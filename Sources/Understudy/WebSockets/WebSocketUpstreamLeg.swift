import UnderstudyRecording
import UnderstudyWebSocket

/// A relayed socket's side towards the upstream (`--upstream`): the connection, the relay's decisions on its bytes,
/// the answer the client gets once the upstream has given its own, and what a recording keeps (the conversation as
/// the upstream and the client had it, before any fault).
struct WebSocketUpstreamLeg {
    /// What the client gets while the upstream answers.
    enum Answer {
        /// Nothing yet: ask again within `wake` milliseconds (the upstream's timeout), or when it sends.
        case waiting(wake: Double)
        /// The upstream accepted: the client's 101 and what the upstream sent right behind its own.
        case accepted(head: DeliveryStep, then: [WebSocketRelay.Event])
        /// The upstream refused, failed or did not answer: the reply the client gets instead, whole.
        case refused([DeliveryStep])
    }

    private var relay: WebSocketRelay
    private let connect: () -> UpstreamSocket?
    private var socket: UpstreamSocket?
    /// The headers of the 101 the pipeline made for the client (the handshake's and the middleware's).
    private let clientHeaders: HTTPHeaders
    private let upstreamURL: String
    private let timeoutMilliseconds: Double
    private var startedAt = 0.0
    /// What the journal and the recording say of the upstream.
    private(set) var outcome: UpstreamOutcome?
    /// The conversation for a recording, times from the upstream's 101; nil when nothing is recorded.
    private(set) var messages: [RecordedSocketMessage]?
    private var acceptedAt = 0.0
    private var keptBytes = 0
    /// Messages past `maximumRecordedBytes`, counted so the recording says what it lacks.
    private var leftOut = 0
    /// The upstream sent its close (or broke the protocol): its connection ending is no drop.
    private var upstreamClosed = false
    /// Its connection's end has been reported.
    private var reportedEnd = false

    /// A conversation kept for a recording stops growing past this: a socket can stay open for hours.
    static let maximumRecordedBytes = 8 << 20

    init(relay: WebSocketRelay, clientHeaders: HTTPHeaders, upstreamURL: String, timeoutSeconds: Int, records: Bool,
         connect: @escaping () -> UpstreamSocket?) {
        self.relay = relay
        self.clientHeaders = clientHeaders
        self.upstreamURL = upstreamURL
        timeoutMilliseconds = Double(timeoutSeconds) * 1_000
        messages = records ? [] : nil
        self.connect = connect
    }

    /// Whether it accepted: the client's connection is a socket from its 101 on.
    var accepted: Bool { outcome?.status == 101 }

    /// The upstream's answer so far: the connection is opened on the first call.
    mutating func answer(now: Double, waker: DeliveryWaker?) -> Answer {
        guard let socket else {
            startedAt = now
            guard let opened = connect() else {
                return refusal(UpstreamFailure(kind: .unreachable, detail: "no connection could be made"), now: now)
            }
            opened.waker = waker
            opened.write(relay.upgrade)
            self.socket = opened
            return answer(now: now, waker: waker)
        }
        var events = relay.receive(socket.received)
        socket.receivedTaken()
        if case .ended(let failure) = socket.state { events += relay.ended(failure: failure) }
        for (index, event) in events.enumerated() {
            switch event {
            case .accepted(let headers):
                acceptedAt = now
                outcome = UpstreamOutcome(status: 101, milliseconds: now - startedAt)
                outcome?.reply = CapturedReply(status: 101, headers: headers, body: [])
                return .accepted(head: .replyHead(status: 101, headers: acceptHeaders(headers), contentLength: nil),
                                 then: Array(events[(index + 1)...]))
            case .refused(let status, let headers, let body):
                outcome = UpstreamOutcome(status: status, milliseconds: now - startedAt)
                outcome?.reply = CapturedReply(status: status, headers: headers, body: body)
                var sent = ownHeaders()
                for field in headers where !HTTPHeaders.hopByHop.contains(field.name.lowercased()) {
                    sent.add(field.name, field.value)
                }
                return .refused([.replyHead(status: status, headers: sent, contentLength: body.count), .body(body), .end])
            case .failed(let reason):
                return refusal(UpstreamFailure(kind: .badReply, detail: reason), now: now)
            default:
                continue
            }
        }
        guard now - startedAt < timeoutMilliseconds else {
            return refusal(UpstreamFailure(kind: .timeout, detail: "no answer within \(Int(timeoutMilliseconds / 1_000)) s"),
                           now: now)
        }
        return .waiting(wake: startedAt + timeoutMilliseconds - now)
    }

    /// What the upstream sent since the last turn, once open; `dropped` (once) when its connection ended without
    /// a close.
    mutating func take(_ earlier: [WebSocketRelay.Event] = [], now: Double) -> (events: [WebSocketRelay.Event], dropped: Bool) {
        guard let socket else { return (earlier, false) }
        let events = earlier + relay.receive(socket.received)
        socket.receivedTaken()
        for event in events {
            switch event {
            case .message(let opcode, let payload): keep(.server, opcode, payload, now: now)
            case .close, .broke: upstreamClosed = true
            default: break
            }
        }
        guard case .ended = socket.state, !reportedEnd else { return (events, false) }
        reportedEnd = true
        return (events, !upstreamClosed)
    }

    /// The client sent its close: the upstream is told, unless the close answers the upstream's own.
    func clientClosed(_ code: WebSocketCloseCode?) {
        guard !upstreamClosed else { return }
        socket?.write(WebSocketRelay.close(code ?? .normal, reason: ""))
    }

    /// The client's message, to the upstream.
    mutating func send(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], now: Double) {
        keep(.client, opcode, payload, now: now)
        socket?.write(WebSocketRelay.frame(opcode, payload))
    }

    /// A control frame to the upstream (a pong, a close), masked.
    func sendControl(_ bytes: [UInt8]) {
        socket?.write(bytes)
    }

    /// The socket is over: the upstream is told it is going away, unless it closed first or the client's close was
    /// passed on, and its connection ends once what was written to it has gone.
    func finish(clientClosed: Bool) {
        if !upstreamClosed, !clientClosed, accepted {
            socket?.write(WebSocketRelay.close(.goingAway, reason: "the client's socket is gone"))
        }
        socket?.close()
    }

    /// The upstream's reply for the journal and the recording, with the conversation kept.
    var recordedOutcome: UpstreamOutcome? {
        guard var outcome else { return nil }
        if let messages {
            outcome.reply?.messages = messages
            outcome.reply?.messagesLeftOut = leftOut
        }
        return outcome
    }

    private mutating func keep(_ sender: RecordedSocketMessage.Sender, _ opcode: WebSocketFrame.Opcode,
                               _ payload: [UInt8], now: Double) {
        guard messages != nil else { return }
        // Once one message is over the limit, the rest are left out too: a conversation with a gap is no replay.
        guard leftOut == 0, keptBytes + payload.count <= WebSocketUpstreamLeg.maximumRecordedBytes else {
            leftOut += 1
            return
        }
        keptBytes += payload.count
        messages?.append(RecordedSocketMessage(sender, data: payload, isBinary: opcode == .binary,
                                               milliseconds: now - acceptedAt))
    }

    /// The client's 101: the handshake the pipeline made for its key, with the subprotocol the upstream chose
    /// (none when it chose none), and the upstream's own fields beside it.
    private func acceptHeaders(_ upstream: HTTPHeaders) -> HTTPHeaders {
        var headers = clientHeaders
        headers.remove("Sec-WebSocket-Protocol")
        for field in upstream {
            let name = field.name.lowercased()
            if name == "sec-websocket-protocol" {
                headers.add(field.name, field.value)
            } else if !HTTPHeaders.hopByHop.contains(name), !name.hasPrefix("sec-websocket-") {
                headers.add(field.name, field.value)
            }
        }
        return headers
    }

    /// The pipeline's headers without the handshake's, for a reply that is not a 101.
    private func ownHeaders() -> HTTPHeaders {
        var headers = clientHeaders
        for name in ["Upgrade", "Connection", "Sec-WebSocket-Accept", "Sec-WebSocket-Protocol"] { headers.remove(name) }
        return headers
    }

    private mutating func refusal(_ failure: UpstreamFailure, now: Double) -> Answer {
        outcome = UpstreamOutcome(status: 0, milliseconds: now - startedAt, failure: failure.detail)
        let body = failure.body(upstreamURL: upstreamURL)
        var headers = ownHeaders()
        headers.remove("Content-Type")
        headers.add("Content-Type", HTTPResponse.jsonContentType)
        return .refused([.replyHead(status: failure.status, headers: headers, contentLength: body.count), .body(body), .end])
    }
}
