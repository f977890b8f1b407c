import CLibevent
import Foundation

extension EventLoop {
    /// evhttp's callback for a complete request.
    func handle(_ request: OpaquePointer) {
        // Timed from the request's first byte: a request that waited behind a burst of others is not delayed,
        // nor journaled as quicker, by the time it spent waiting.
        let startedAt = noteRequestArrived(request) ?? EventLoop.monotonicMilliseconds()
        if serveCannedReply(request, startedAt: startedAt) { return }
        let incoming = read(request)
        // Once stopping, a request arriving on a kept-alive connection is not served: the connection closes with no
        // reply, which HTTP clients retry on a fresh connection (libcurl does so itself). Otherwise a client whose
        // connection cache outlives this server could be answered by it after another server took the port.
        if isShuttingDown {
            var plan = ReplyPlan(response: HTTPResponse(status: 503), incoming: incoming, startedAt: startedAt,
                                 arrivedAt: configuration.clock())
            plan.delivery = .empty
            deliver(plan, to: request)
            return
        }
        if incoming.path.hasPrefix(AdminRoutes.prefix) {
            // Admin gate (#15): same-origin only and a known Host, before the token and before the body is parsed.
            var response = AdminGate(configuration: configuration, port: port).refusal(for: incoming)?.response
                ?? remoteControl.refusal(for: incoming, admin: true)?.response
                ?? AdminRoutes(faults: faults, journal: journal, loop: self).respond(to: incoming)
            decorate(&response, for: incoming)
            discardUnreadBody(of: request, incoming, closing: &response)
            let plan = ReplyPlan(response: response, incoming: incoming, startedAt: startedAt, arrivedAt: configuration.clock())
            send(plan, to: request, journaled: false)
            return
        }
        var plan: ReplyPlan
        if EventLoop.asksForFault(incoming), let refusal = remoteControl.refusal(for: incoming, admin: false) {
            plan = ReplyPlan(response: refusal.response, incoming: incoming, startedAt: startedAt, arrivedAt: configuration.clock())
        } else {
            plan = self.plan(for: incoming, startedAt: startedAt)
        }
        decorate(&plan.response, for: incoming)
        discardUnreadBody(of: request, incoming, closing: &plan.response)
        guard plan.delayMilliseconds > 0 else {
            deliver(plan, to: request)
            return
        }
        hold(.planned(plan), for: plan.delayMilliseconds, since: startedAt, request: request)
    }

    /// Copies what routes need out of evhttp's request.
    private func read(_ request: OpaquePointer) -> HTTPRequest {
        let target = evhttp_request_get_uri(request).map { String(cString: $0) } ?? "/"
        let headers = evhttp_request_get_input_headers(request).map(EventLoop.headers(of:)) ?? HTTPHeaders()
        var body: [UInt8] = []
        if let buffer = evhttp_request_get_input_buffer(request) {
            let length = evbuffer_get_length(buffer)
            if length > 0 {
                body = [UInt8](repeating: 0, count: length)
                _ = body.withUnsafeMutableBytes { evbuffer_copyout(buffer, $0.baseAddress, length) }
            }
        }
        return HTTPRequest(method: EventLoop.methodName(evhttp_request_get_command(request)), target: target,
                           headers: headers, body: body)
    }

    /// A copy of evhttp's header list, in one allocation.
    static func headers(of list: UnsafeMutablePointer<evkeyvalq>) -> HTTPHeaders {
        var count = 0
        var field = list.pointee.tqh_first
        while let current = field {
            count += 1
            field = current.pointee.next.tqe_next
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(count)
        field = list.pointee.tqh_first
        while let current = field {
            if let key = current.pointee.key, let value = current.pointee.value {
                headers.add(String(cString: key), String(cString: value))
            }
            field = current.pointee.next.tqe_next
        }
        return headers
    }

    /// Headers every reply carries: rate-limit counters, CORS for browsers, and the conditional-GET answer.
    private func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        let window = rateWindow.record(now: configuration.clock())
        // A 429 from a fault carries its own, exhausted, counters.
        if response.headers["X-RateLimit-Limit"] == nil {
            response.headers.add("X-RateLimit-Limit", String(RateLimitWindow.limit))
            response.headers.add("X-RateLimit-Remaining", String(window.remaining))
            response.headers.add("X-RateLimit-Reset", String(window.resetsAt))
        }
        // The admin API never answers with CORS headers (#15): only its own origin may use it.
        if let origin = request.headers["Origin"], AdminGate.allowsCORS(for: request) {
            response.headers.add("Access-Control-Allow-Origin", origin)
            response.headers.add("Access-Control-Allow-Credentials", "true")
            response.headers.add("Vary", "Origin")
            if request.method == "OPTIONS" {
                response.headers.add("Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE")
                if let asked = request.headers["Access-Control-Request-Headers"] {
                    response.headers.add("Access-Control-Allow-Headers", asked)
                }
            }
        }
        // Express tags every body it sends; the catalogue's tags are computed once, the rest here. A faulted reply
        // is not the resource, so it is never tagged (nor answered with 304).
        if response.etag == nil, response.status == 200, response.headers[EventLoop.faultAppliedHeader] == nil,
           case .bytes(let bytes) = response.body, !bytes.isEmpty {
            response.etag = HTTPResponse.weakETag(for: bytes)
        }
        if let etag = response.etag, response.status == 200 {
            response.headers.add("ETag", etag)
            let conditional = request.method == "GET" || request.method == "HEAD"
            if conditional, let condition = request.headers["If-None-Match"], EventLoop.matches(condition, etag: etag) {
                response.status = 304
                response.body = .empty
                response.headers.remove("Content-Type")
            }
        }
    }

    /// evhttp does not read a body sent with HEAD or TRACE, so its bytes would be parsed as the next request on
    /// the connection (request smuggling). Drop what has arrived of it, and close the connection after this reply
    /// so nothing that arrives later is parsed either.
    private func discardUnreadBody(of request: OpaquePointer, _ incoming: HTTPRequest, closing response: inout HTTPResponse) {
        guard incoming.method == "HEAD" || incoming.method == "TRACE" else { return }
        let declared = incoming.headers["Content-Length"].flatMap { Int($0) } ?? 0
        guard declared != 0 || incoming.headers["Transfer-Encoding"] != nil else { return }
        if let connection = evhttp_request_get_connection(request),
           let bufferEvent = evhttp_connection_get_bufferevent(connection),
           let input = bufferevent_get_input(bufferEvent) {
            evbuffer_drain(input, evbuffer_get_length(input))
        }
        response.headers.add("Connection", "close")
    }

    /// `If-None-Match` compares weakly: a list of tags, or `*`.
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || "W/" + tag == etag
        }
    }

    /// Queues the reply on the connection; static bodies go out by reference, without a copy.
    func send(_ plan: ReplyPlan, to request: OpaquePointer, journaled: Bool = true) {
        let response = plan.response
        let incoming = plan.incoming
        let isHead = incoming.method == "HEAD"
        if let headers = evhttp_request_get_output_headers(request) {
            for field in response.headers {
                evhttp_add_header(headers, field.name, field.value)
            }
            // evhttp leaves Content-Length off a HEAD reply; HTTP says it should be the GET body's length.
            if isHead, response.status != 204, response.status != 304 {
                evhttp_add_header(headers, "Content-Length", String(response.body.count))
            }
        }
        if !isHead, let output = evhttp_request_get_output_buffer(request) {
            switch response.body {
            case .empty:
                break
            case .bytes(let bytes):
                _ = bytes.withUnsafeBytes { evbuffer_add(output, $0.baseAddress, $0.count) }
            case .shared(let shared):
                EventLoop.addReference(to: shared, in: output)
            }
        }
        evhttp_send_reply(request, Int32(response.status), ReasonPhrase.forStatus(response.status), nil)
        if journaled {
            let now = EventLoop.monotonicMilliseconds()
            record(plan, status: response.status, bytesWritten: isHead ? 0 : response.body.count, firstByteAt: now)
        } else {
            log(plan, status: response.status)
        }
    }

    /// Appends `shared` to an output buffer without copying it; the buffer keeps it alive until it is written.
    static func addReference(to shared: SharedBytes, in output: OpaquePointer) {
        evbuffer_add_reference(output, shared.base, shared.count, { _, _, retained in
            guard let retained else { return }
            Unmanaged<SharedBytes>.fromOpaque(retained).release()
        }, Unmanaged.passRetained(shared).toOpaque())
    }

    /// Delivers the reply after its delay on a libevent timer: the loop keeps serving meanwhile.
    /// The delay runs from `startedAt` (the request's first byte), not from now.
    func hold(_ payload: PendingReply.Payload, for milliseconds: Int, since startedAt: Double, request: OpaquePointer) {
        let reply = PendingReply(request: request, payload: payload)
        let key = ObjectIdentifier(reply)
        pending[key] = reply
        reply.timer = event_new(base, -1, 0, { _, _, argument in
            guard let argument else { return }
            let reply = Unmanaged<PendingReply>.fromOpaque(argument).takeUnretainedValue()
            reply.loop?.release(reply)
        }, Unmanaged.passUnretained(reply).toOpaque())
        reply.loop = self
        let remaining = max(0, Double(milliseconds) - (EventLoop.monotonicMilliseconds() - startedAt))
        arm(reply.timer, inMicroseconds: Int((remaining * 1_000).rounded(.up)))
    }

    /// Sends a held reply now and forgets it.
    func release(_ reply: PendingReply) {
        guard pending.removeValue(forKey: ObjectIdentifier(reply)) != nil else { return }
        if let timer = reply.timer {
            event_free(timer)
            reply.timer = nil
        }
        reply.loop = nil
        switch reply.payload {
        case .planned(let plan):
            deliver(plan, to: reply.request)
        case .canned(let canned, let incoming):
            send(canned, to: reply.request, for: incoming)
        }
    }

    /// On shutdown, every held reply goes out at once rather than being dropped.
    func flushPendingReplies() {
        for reply in Array(pending.values) { release(reply) }
    }

    static func methodName(_ command: evhttp_cmd_type) -> String {
        switch command {
        case EVHTTP_REQ_GET: "GET"
        case EVHTTP_REQ_POST: "POST"
        case EVHTTP_REQ_HEAD: "HEAD"
        case EVHTTP_REQ_PUT: "PUT"
        case EVHTTP_REQ_DELETE: "DELETE"
        case EVHTTP_REQ_OPTIONS: "OPTIONS"
        case EVHTTP_REQ_TRACE: "TRACE"
        case EVHTTP_REQ_CONNECT: "CONNECT"
        case EVHTTP_REQ_PATCH: "PATCH"
        default: "UNKNOWN"
        }
    }

    static func monotonicMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1_000 + Double(now.tv_nsec) / 1_000_000
    }
}
