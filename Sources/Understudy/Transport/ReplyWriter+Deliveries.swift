import CLibevent
import Foundation

/// Drives any `Delivery`: asks it for a turn, performs the turn's steps in order, and arranges the next one. The
/// writer knows what a step does on the wire, never which delivery asked for it.
extension ReplyWriter {
    /// The kernel's send buffer for a delivery that prefers a small one: a reader that stops reading is noticed
    /// (its bytes pile up in the server, where they are counted) after kilobytes.
    static let smallSendBufferBytes: Int32 = 8 << 10

    /// Starts a delivery on a request whose reply takes more than this callback.
    func start(_ delivery: any Delivery, _ plan: ReplyPlan, on request: OpaquePointer) {
        guard let task = adopt(request, plan: plan, delivery: delivery) else { return }
        task.waker = DeliveryWaker { [weak self, weak task] in
            guard let self, let task else { return }
            turn(task)
        }
        if delivery.prefersSmallSendBuffer, let bufferEvent = task.bufferEvent {
            var size = ReplyWriter.smallSendBufferBytes
            setsockopt(bufferevent_getfd(bufferEvent), SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        turn(task)
    }

    /// One turn of the task's delivery, and another straight after for each wake that came during it.
    func turn(_ task: ConnectionTask) {
        guard task.machine.canWrite, task.turns.begin() else { return }
        repeat {
            let now = EventLoop.monotonicMilliseconds()
            // The context lives only for the call, so `received` is the task's alone again afterwards and keeps its
            // storage for the next read.
            let next = task.delivery.advance(DeliveryContext(now: now, unflushedBytes: task.unflushedBytes,
                                                             waker: task.waker, received: task.received))
            task.receivedTaken()
            perform(next, task, at: now)
        } while task.turns.end() && task.machine.canWrite
    }

    /// Performs a turn's steps; `now` is the clock reading the delivery decided them at.
    func perform(_ next: DeliveryTurn, _ task: ConnectionTask, at now: Double = EventLoop.monotonicMilliseconds()) {
        for step in next.steps {
            guard task.machine.canWrite else { return }
            switch step {
            case .head(let contentLength):
                startReply(task, status: task.plan.response.status, headers: task.plan.response.headers,
                           contentLength: contentLength, at: now)
            case .replyHead(let status, let headers, let contentLength):
                startReply(task, status: status, headers: headers, contentLength: contentLength, at: now)
            case .body(let bytes): write(task, bytes)
            case .raw(let bytes): writeRaw(task, bytes)
            case .end: finish(task)
            case .close(let reset): close(task, reset: reset)
            case .closeWhenFlushed(let reset): closeWhenFlushed(task, reset: reset)
            case .hang: watchForDeparture(task)
            }
            if step.isFinal {
                task.turns.deliveryEnded()
                return
            }
        }
        if let wake = next.wake {
            schedule(task, .turn, inMilliseconds: wake)
        } else {
            stopTimer(task)
        }
    }

    /// Sends the status line and headers; with no length, the body is chunked (none follows a 101). A delivery that
    /// reads the client owns the connection from then on.
    ///
    /// The head's time is the turn's clock reading, not a fresh one: a paced delivery's schedule counts from that
    /// reading, so the journal's rate (body bytes from head to end) is measured from the schedule's origin. A
    /// fresh reading taken after the loop was preempted shortened the span and reported a rate the schedule never
    /// allowed (1,056,617 B/s for `rate=1m` under AddressSanitizer in CI).
    private func startReply(_ task: ConnectionTask, status: Int, headers: HTTPHeaders, contentLength: Int?,
                            at now: Double) {
        if let output = evhttp_request_get_output_headers(task.request) {
            for field in headers { evhttp_add_header(output, field.name, field.value) }
            if let contentLength { evhttp_add_header(output, "Content-Length", String(contentLength)) }
        }
        task.outcome.status = status
        task.outcome.firstByteAt = now
        evhttp_send_reply_start(task.request, Int32(status), ReasonPhrase.cString(forStatus: status))
        if task.delivery.readsClient { takeOver(task) }
    }

    private func write(_ task: ConnectionTask, _ bytes: [UInt8]) {
        guard !bytes.isEmpty, let buffer = evbuffer_new() else { return }
        _ = bytes.withUnsafeBytes { evbuffer_add(buffer, $0.baseAddress, $0.count) }
        evhttp_send_reply_chunk(task.request, buffer)
        evbuffer_free(buffer)
        task.outcome.bytesWritten += bytes.count
    }

    private func writeRaw(_ task: ConnectionTask, _ bytes: [UInt8]) {
        guard let bufferEvent = task.bufferEvent else { return }
        _ = bytes.withUnsafeBytes { bufferevent_write(bufferEvent, $0.baseAddress, $0.count) }
        bufferevent_enable(bufferEvent, Int16(EV_WRITE))
        task.outcome.bytesWritten += bytes.count
    }

    /// Waits until the written bytes have left for the socket, then closes (an RST after a short pause, so the
    /// client reads the bytes before the reset).
    private func closeWhenFlushed(_ task: ConnectionTask, reset: Bool) {
        let wait = ConnectionTask.Wait.flush(reset: reset, deadline: EventLoop.monotonicMilliseconds() + 10_000,
                                             pauseTicks: reset ? 10 : 0)
        schedule(task, wait, inMilliseconds: ReplyWriter.flushTickMilliseconds)
    }

    /// A hung request has no reply in progress, so evhttp does not notice the client leaving: the socket is
    /// peeked at every `departureTickMilliseconds` (`waitTicked`).
    private func watchForDeparture(_ task: ConnectionTask) {
        schedule(task, .departure, inMilliseconds: ReplyWriter.departureTickMilliseconds)
    }

    /// The task's timer fired: its next turn, or one more look at what it waits for.
    func waitTicked(_ task: ConnectionTask) {
        switch task.wait {
        case .turn:
            turn(task)
        case .flush(let reset, let deadline, let pauseTicks):
            let now = EventLoop.monotonicMilliseconds()
            guard task.unflushedBytes == 0 || now > deadline else {
                return schedule(task, task.wait, inMilliseconds: ReplyWriter.flushTickMilliseconds)
            }
            guard pauseTicks == 0 else {
                return schedule(task, .flush(reset: reset, deadline: deadline, pauseTicks: pauseTicks - 1),
                                inMilliseconds: ReplyWriter.flushTickMilliseconds)
            }
            close(task, reset: reset)
        case .departure:
            guard let bufferEvent = task.bufferEvent else { return }
            var byte: UInt8 = 0
            let received = recv(bufferevent_getfd(bufferEvent), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                close(task, reset: false)
            } else {
                schedule(task, .departure, inMilliseconds: ReplyWriter.departureTickMilliseconds)
            }
        }
    }

    static let flushTickMilliseconds = 2.0
    static let departureTickMilliseconds = 100.0
}
