import CLibevent
import Foundation

extension EventLoop {
    /// Answers a plain GET whose reply is already built, without making a request value, a plan or a response;
    /// returns false, having sent nothing, when the request needs the full pipeline.
    ///
    /// Two replies qualify: a catalogue target the router cached as asking for no fault, while no fault rule is
    /// installed (held on a timer first when the target asks for a delay); and a fault header asking only for an
    /// error status. Either way the request has no body, no `Origin` and no `If-None-Match`, so the bytes are the
    /// pipeline's, and it is journaled and logged the same way.
    func serveCannedReply(_ request: OpaquePointer, startedAt: Double) -> Bool {
        guard evhttp_request_get_command(request) == EVHTTP_REQ_GET, !isShuttingDown,
              let uri = evhttp_request_get_uri(request),
              let input = evhttp_request_get_input_headers(request) else { return false }
        if let body = evhttp_request_get_input_buffer(request), evbuffer_get_length(body) > 0 { return false }
        // Decided on evhttp's C strings first, so a request that needs the pipeline has copied nothing.
        var faultValue: UnsafeMutablePointer<CChar>?
        var sessionValue: UnsafeMutablePointer<CChar>?
        var field = input.pointee.tqh_first
        while let current = field {
            if let key = current.pointee.key, let value = current.pointee.value {
                if key.caseInsensitiveEquals("Origin") || key.caseInsensitiveEquals("If-None-Match") { return false }
                if faultValue == nil, key.caseInsensitiveEquals(EventLoop.faultHeaderName) { faultValue = value }
                if sessionValue == nil, key.caseInsensitiveEquals(EventLoop.sessionHeaderName) { sessionValue = value }
            }
            field = current.pointee.next.tqe_next
        }
        // An empty fault header asks for nothing; a session id too long to be one gets the pipeline's 400.
        if let value = faultValue, value.pointee == 0 { faultValue = nil }
        if let sessionValue, strlen(sessionValue) > FaultBook.maximumSessionIDLength { return false }
        let target = String(cString: uri)
        if target.utf8.starts(with: AdminRoutes.prefix.utf8) { return false }
        let reply: CannedReply
        var delayMilliseconds = 0
        if let faultValue {
            guard let canned = cannedFault(String(cString: faultValue)) else { return false }
            reply = canned
        } else {
            guard let cached = router.cache.cannedReply(for: target), !faults.hasRules else { return false }
            (reply, delayMilliseconds) = cached
        }

        let arrivedAt = configuration.clock()
        let mark = strchr(uri, Int32(UInt8(ascii: "?")))
        let incoming = CannedRequest(
            target: target,
            path: String(decoding: UnsafeRawBufferPointer(start: uri, count: mark.map { UnsafePointer($0) - uri } ?? strlen(uri)),
                         as: UTF8.self),
            query: mark.map { String(cString: $0 + 1) } ?? "", headers: EventLoop.headers(of: input),
            // The first session header, none when it is empty: as the pipeline reads it.
            session: sessionValue.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 },
            startedAt: startedAt, arrivedAt: arrivedAt, window: rateWindow.record(now: arrivedAt))
        if delayMilliseconds > 0 {
            hold(.canned(reply, incoming), for: delayMilliseconds, since: startedAt, request: request)
        } else {
            send(reply, to: request, for: incoming)
        }
        return true
    }

    /// Sends a canned reply with the request's rate-limit headers, then journals and logs it.
    func send(_ reply: CannedReply, to request: OpaquePointer, for incoming: CannedRequest) {
        if let output = evhttp_request_get_output_buffer(request) {
            EventLoop.addReference(to: reply.body, in: output)
        }
        // Without a connection (the client left while a delay held the reply) evhttp frees the request inside
        // evhttp_send_reply, so the head must not be linked into it; it is sent nowhere anyway.
        if evhttp_request_get_connection(request) != nil, let headers = evhttp_request_get_output_headers(request) {
            cannedHead.send(reply, on: request, headers: headers, remaining: incoming.window.remaining,
                            resetsAt: incoming.window.resetsAt)
        } else {
            evhttp_send_reply(request, Int32(reply.status), ReasonPhrase.forStatus(reply.status), nil)
        }

        let elapsed = EventLoop.monotonicMilliseconds() - incoming.startedAt
        journal.record(JournalEntry(
            id: journal.nextID(), time: incoming.arrivedAt, session: incoming.session, method: "GET",
            path: incoming.path, query: incoming.query, headers: incoming.headers, bodySize: 0, rule: nil,
            fault: reply.fault, status: reply.status, bytesWritten: reply.body.count, firstByteMilliseconds: elapsed,
            durationMilliseconds: elapsed))
        configuration.requestLog?(RequestLogEntry(method: "GET", target: incoming.target, status: reply.status,
                                                  durationMilliseconds: elapsed, fault: reply.fault))
    }

    /// The reply to a fault header that asks only for an error status, built once per header text; nil for any
    /// other spec, an invalid one, or when fault headers need the admin token (the pipeline answers those).
    private func cannedFault(_ text: String) -> CannedReply? {
        if let known = cannedFaults[text] { return known }
        guard remoteControl.token == nil, remoteControl.isLoopback,
              let spec = try? parsedSpec(text), spec.isPlainErrorStatus, let status = spec.status else { return nil }
        let response = FaultedResponses.status(status, spec: spec, nowSeconds: configuration.clock())
        guard case .bytes(let bytes) = response.body else { return nil }
        let canned = CannedReply(status: status, headers: response.headers.fields + [(EventLoop.faultAppliedHeader, spec.text)],
                                 body: SharedBytes(bytes), etag: nil, fault: spec.text)
        guard CannedHead.fits(canned) else { return nil }
        if cannedFaults.count >= 256 { cannedFaults.removeAll(keepingCapacity: true) }
        cannedFaults[text] = canned
        return canned
    }
}

extension UnsafeMutablePointer<CChar> {
    /// ASCII case-insensitive equality with a C string literal, as HTTP field names compare; a `String` argument
    /// to `strcasecmp` would be copied to the heap on every call.
    func caseInsensitiveEquals(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { literal in
            literal.withMemoryRebound(to: CChar.self) { strncasecmp(self, $0.baseAddress!, $0.count) == 0 && self[$0.count] == 0 }
        }
    }
}
