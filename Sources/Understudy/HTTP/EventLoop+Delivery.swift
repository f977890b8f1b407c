import CLibevent
import Foundation

extension EventLoop {
    /// Puts a planned reply on the wire, now.
    func deliver(_ plan: ReplyPlan, to request: OpaquePointer) {
        if plan.delivery == .whole {
            send(plan, to: request)
            return
        }
        guard let task = adopt(request, plan: plan) else { return }
        let body = plan.response.body.bytesCopy
        switch plan.delivery {
        case .whole:
            break
        case .empty:
            close(task, reset: false)
        case .reset(let afterHeaders):
            if afterHeaders {
                startReply(task, contentLength: body.count)
                closeWhenFlushed(task, reset: true)
            } else {
                close(task, reset: true)
            }
        case .hang:
            // Journaled when the connection closes, so its duration says how long the client was held.
            watchForDeparture(task)
        case .garbage:
            if let bufferEvent = task.bufferEvent {
                let bytes = faults.withBook { $0.randomBytes(512, session: plan.session) }
                _ = bytes.withUnsafeBytes { bufferevent_write(bufferEvent, $0.baseAddress, $0.count) }
                bufferevent_enable(bufferEvent, Int16(EV_WRITE))
                task.bytesWritten = bytes.count
            }
            closeWhenFlushed(task, reset: false)
        case .truncated(let count):
            startReply(task, contentLength: body.count)
            write(task, body.prefix(count))
            closeWhenFlushed(task, reset: false)
        case .truncatedChunked:
            startReply(task, contentLength: nil)
            let piece = max(1, body.count / 4)
            var sent = 0
            while body.count - sent > piece {
                write(task, body[sent..<(sent + piece)])
                sent += piece
            }
            closeWhenFlushed(task, reset: false)
        case .paced(let pacing):
            startReply(task, contentLength: body.count)
            task.remainingBody = body[...]
            let (bytesPerTick, tickMilliseconds) = EventLoop.slices(of: body.count, pacing: pacing)
            task.onTick = { [unowned self] task in
                let slice = task.remainingBody.prefix(bytesPerTick)
                task.remainingBody = task.remainingBody.dropFirst(slice.count)
                write(task, slice)
                if task.remainingBody.isEmpty { finish(task) }
            }
            startTimer(task, everyMilliseconds: tickMilliseconds)
        case .stream(let streamPlan):
            startStream(task, streamPlan)
        }
    }

    /// Bytes per tick and tick length for a pacing directive (ticks of at least 10 ms).
    static func slices(of length: Int, pacing: FaultSpec.Pacing) -> (bytes: Int, milliseconds: Int) {
        switch pacing {
        case .bytesPerSecond(let rate):
            let tick = max(10, min(1_000, 1_000 * 64 / max(rate, 1)))
            return (max(1, rate * tick / 1_000), tick)
        case .chunks(let count, let duration):
            return (max(1, (length + count - 1) / count), max(1, duration / max(1, count)))
        }
    }

    /// Takes ownership of a request whose reply will take more than this callback; nil when the client has gone.
    private func adopt(_ request: OpaquePointer, plan: ReplyPlan) -> ConnectionTask? {
        guard let connection = evhttp_request_get_connection(request) else {
            evhttp_request_free(request)
            return nil
        }
        let task = ConnectionTask(request: request, plan: plan, loop: self)
        task.connection = connection
        tasks[ObjectIdentifier(task)] = task
        evhttp_connection_set_closecb(connection, { _, argument in
            guard let argument else { return }
            let task = Unmanaged<ConnectionTask>.fromOpaque(argument).takeUnretainedValue()
            task.loop?.connectionClosed(task)
        }, Unmanaged.passUnretained(task).toOpaque())
        return task
    }

    /// evhttp's close callback: the client left, or the server closed the connection.
    func connectionClosed(_ task: ConnectionTask) {
        task.connection = nil
        stopTimer(task)
        // When evhttp failed the connection itself, it detached the unfinished request and left it to us.
        if task.ownsRequest, !task.closingOnPurpose, evhttp_request_get_connection(task.request) == nil {
            evhttp_request_free(task.request)
        }
        task.ownsRequest = false
        record(task)
        tasks.removeValue(forKey: ObjectIdentifier(task))
    }

    /// Sends the status line and headers; with no length, the body is chunked.
    func startReply(_ task: ConnectionTask, contentLength: Int?) {
        let response = task.plan.response
        if let headers = evhttp_request_get_output_headers(task.request) {
            for field in response.headers { evhttp_add_header(headers, field.name, field.value) }
            if let contentLength { evhttp_add_header(headers, "Content-Length", String(contentLength)) }
        }
        task.statusSent = response.status
        task.firstByteAt = EventLoop.monotonicMilliseconds()
        evhttp_send_reply_start(task.request, Int32(response.status), ReasonPhrase.forStatus(response.status))
    }

    func write<Bytes: Collection<UInt8>>(_ task: ConnectionTask, _ bytes: Bytes) {
        guard task.connection != nil, task.ownsRequest, !bytes.isEmpty, let buffer = evbuffer_new() else { return }
        _ = Array(bytes).withUnsafeBytes { evbuffer_add(buffer, $0.baseAddress, $0.count) }
        evhttp_send_reply_chunk(task.request, buffer)
        evbuffer_free(buffer)
        task.bytesWritten += bytes.count
    }

    /// Ends a started reply cleanly (the connection stays open for the next request).
    func finish(_ task: ConnectionTask) {
        stopTimer(task)
        guard task.ownsRequest else { return }
        task.ownsRequest = false
        if let connection = task.connection { evhttp_connection_set_closecb(connection, nil, nil) }
        evhttp_send_reply_end(task.request)
        record(task)
        tasks.removeValue(forKey: ObjectIdentifier(task))
    }

    /// Closes the connection now: a FIN, or with `reset` an RST.
    func close(_ task: ConnectionTask, reset: Bool) {
        stopTimer(task)
        guard let connection = task.connection else { return }
        if reset, let bufferEvent = task.bufferEvent {
            EventLoop.abortSocket(bufferevent_getfd(bufferEvent))
        }
        task.closingOnPurpose = true
        evhttp_connection_free(connection)
    }

    /// Waits until the written bytes have left for the socket, then closes (RST after a short pause, so the
    /// client reads the bytes before the reset).
    func closeWhenFlushed(_ task: ConnectionTask, reset: Bool) {
        var pauseTicks = reset ? 10 : 0
        let deadline = EventLoop.monotonicMilliseconds() + 10_000
        task.onTick = { [unowned self] task in
            guard task.unflushedBytes == 0 || EventLoop.monotonicMilliseconds() > deadline else { return }
            if pauseTicks > 0 {
                pauseTicks -= 1
                return
            }
            close(task, reset: reset)
        }
        startTimer(task, everyMilliseconds: 2)
    }

    /// A hung request has no reply in progress, so evhttp does not notice the client leaving; peek at the socket
    /// every 100 ms and free everything once the client has closed it.
    private func watchForDeparture(_ task: ConnectionTask) {
        task.onTick = { [unowned self] task in
            guard let bufferEvent = task.bufferEvent else { return }
            var byte: UInt8 = 0
            let received = recv(bufferevent_getfd(bufferEvent), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                close(task, reset: false)
            }
        }
        startTimer(task, everyMilliseconds: 100)
    }

    /// Sends an RST instead of a FIN: SO_LINGER 0, then the socket is closed by swapping an unconnected socket
    /// into its descriptor, so evhttp's own shutdown and close later touch that placeholder, never a reused
    /// descriptor.
    static func abortSocket(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var linger = CLibevent.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<CLibevent.linger>.size))
        #if canImport(Glibc)
        let placeholder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let placeholder = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard placeholder >= 0 else { return }
        dup2(placeholder, descriptor)
        Foundation.close(placeholder)
    }

    /// On shutdown: streams end cleanly and hangs are closed, since neither would ever finish; paced and breaking
    /// replies carry on until they are done or the grace period ends (`closeAllTasks`).
    func endAllTasks() {
        for task in Array(tasks.values) {
            if let stream = task.stream, task.connection != nil {
                stream.end(task)
            } else if case .hang = task.plan.delivery {
                close(task, reset: false)
            }
        }
    }

    /// At the end of the grace period: whatever is still going is cut off.
    func closeAllTasks() {
        for task in Array(tasks.values) { close(task, reset: false) }
    }

    func record(_ task: ConnectionTask) {
        guard !task.recorded else { return }
        task.recorded = true
        record(task.plan, status: task.statusSent, bytesWritten: task.bytesWritten, firstByteAt: task.firstByteAt)
    }

    /// Adds the request to the journal.
    func record(_ plan: ReplyPlan, status: Int, bytesWritten: Int, firstByteAt: Double?) {
        let now = EventLoop.monotonicMilliseconds()
        journal.record(JournalEntry(
            id: journal.nextID(), time: plan.arrivedAt, session: plan.session, method: plan.incoming.method,
            path: String(plan.incoming.path), query: plan.incoming.rawQuery.map(String.init) ?? "",
            headers: plan.incoming.headers, bodySize: plan.incoming.body.count, rule: plan.ruleID,
            fault: plan.applied, status: status, bytesWritten: bytesWritten,
            firstByteMilliseconds: firstByteAt.map { $0 - plan.startedAt }, durationMilliseconds: now - plan.startedAt))
        log(plan, status: status)
    }

    func log(_ plan: ReplyPlan, status: Int) {
        configuration.requestLog?(RequestLogEntry(
            method: plan.incoming.method, target: plan.incoming.target, status: status,
            durationMilliseconds: EventLoop.monotonicMilliseconds() - plan.startedAt, fault: plan.applied))
    }
}

extension HTTPResponse.Body {
    /// The body's bytes, copied.
    var bytesCopy: [UInt8] {
        switch self {
        case .empty: []
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        }
    }
}
