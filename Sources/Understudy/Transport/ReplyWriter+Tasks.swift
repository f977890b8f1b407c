import CLibevent
import Foundation

/// Replies that outlive their callback: each a `ConnectionTask` whose `ReplyStateMachine` says what to do.
extension ReplyWriter {
    /// Takes ownership of a request whose reply will take more than this callback; nil when the client has gone.
    func adopt(_ request: OpaquePointer, plan: ReplyPlan) -> ConnectionTask? {
        guard let connection = evhttp_request_get_connection(request) else {
            evhttp_request_free(request)
            return nil
        }
        let task = ConnectionTask(request: request, plan: plan, writer: self)
        task.connection = connection
        tasks[ObjectIdentifier(task)] = task
        evhttp_connection_set_closecb(connection, { _, argument in
            guard let argument else { return }
            let task = Unmanaged<ConnectionTask>.fromOpaque(argument).takeUnretainedValue()
            task.writer?.connectionClosed(task)
        }, Unmanaged.passUnretained(task).toOpaque())
        return task
    }

    /// evhttp's close callback: the client left, or the server closed the connection.
    private func connectionClosed(_ task: ConnectionTask) {
        task.connection = nil
        stopTimer(task)
        // When evhttp failed the connection itself, it detached the unfinished request and left it to us.
        switch task.machine.connectionClosed(requestDetached: evhttp_request_get_connection(task.request) == nil) {
        case .freeRequestAndRecord:
            evhttp_request_free(task.request)
            record(task)
        case .record:
            record(task)
        case .nothing:
            break
        }
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
        guard task.machine.canWrite, !bytes.isEmpty, let buffer = evbuffer_new() else { return }
        _ = Array(bytes).withUnsafeBytes { evbuffer_add(buffer, $0.baseAddress, $0.count) }
        evhttp_send_reply_chunk(task.request, buffer)
        evbuffer_free(buffer)
        task.bytesWritten += bytes.count
    }

    /// Ends a started reply cleanly (the connection stays open for the next request).
    func finish(_ task: ConnectionTask) {
        stopTimer(task)
        guard task.machine.end() == .endReplyAndRecord else { return }
        if let connection = task.connection { evhttp_connection_set_closecb(connection, nil, nil) }
        evhttp_send_reply_end(task.request)
        record(task)
    }

    /// Closes the connection now: a FIN, or with `reset` an RST.
    func close(_ task: ConnectionTask, reset: Bool) {
        stopTimer(task)
        guard let connection = task.connection, case .freeConnection(let reset) = task.machine.close(reset: reset) else {
            return
        }
        if reset, let bufferEvent = task.bufferEvent {
            ReplyWriter.abortSocket(bufferevent_getfd(bufferEvent))
        }
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
    func watchForDeparture(_ task: ConnectionTask) {
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
        let placeholder = Posix.streamSocket(family: AF_INET)
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
            } else if case .feed = task.plan.delivery, task.connection != nil {
                finish(task)
            } else if case .hang = task.plan.delivery {
                close(task, reset: false)
            }
        }
    }

    /// At the end of the grace period: whatever is still going is cut off.
    func closeAllTasks() {
        for task in Array(tasks.values) { close(task, reset: false) }
    }

    /// The task is done: it is journaled and forgotten.
    private func record(_ task: ConnectionTask) {
        tasks.removeValue(forKey: ObjectIdentifier(task))
        if case .feed = task.plan.delivery { feed.unsubscribe(task) }
        report(task.plan, ReplyOutcome(status: task.statusSent, bytesWritten: task.bytesWritten,
                                       firstByteAt: task.firstByteAt, finishedAt: EventLoop.monotonicMilliseconds()))
    }
}
