import CLibevent
import Foundation

/// Replies that outlive their callback: each a `ConnectionTask` whose `ReplyStateMachine` says what to do.
extension ReplyWriter {
    /// Takes ownership of a request whose reply will take more than this callback; nil when the client has gone.
    func adopt(_ request: OpaquePointer, plan: ReplyPlan, delivery: any Delivery) -> ConnectionTask? {
        guard let connection = evhttp_request_get_connection(request) else {
            evhttp_request_free(request)
            return nil
        }
        let task = ConnectionTask(request: request, plan: plan, delivery: delivery, writer: self)
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

    /// Sends an RST instead of a FIN: SO_LINGER 0, then the socket is closed by swapping an unconnected socket
    /// into its descriptor, so evhttp's own shutdown and close later touch that placeholder, never a reused
    /// descriptor.
    static func abortSocket(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var linger = CLibevent.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<CLibevent.linger>.size))
        let placeholder = Posix.tcpSocket(family: AF_INET)
        guard placeholder >= 0 else { return }
        dup2(placeholder, descriptor)
        Foundation.close(placeholder)
    }

    /// On shutdown: each delivery says what ends it at once (endless ones end cleanly, hangs close);
    /// paced and breaking replies carry on until they are done or the grace period ends (`closeAllTasks`).
    func endAllTasks() {
        for task in Array(tasks.values) where task.connection != nil && task.machine.canWrite {
            let steps = task.delivery.shutDown()
            guard !steps.isEmpty else { continue }
            stopTimer(task)
            perform(DeliveryTurn(steps), task)
        }
    }

    /// At the end of the grace period: whatever is still going is cut off.
    func closeAllTasks() {
        for task in Array(tasks.values) { close(task, reset: false) }
    }

    /// The task is done: it is journaled and forgotten.
    private func record(_ task: ConnectionTask) {
        tasks.removeValue(forKey: ObjectIdentifier(task))
        task.delivery.finished()
        task.outcome.upstream = task.delivery.upstream
        task.outcome.socket = task.delivery.socketTranscript
        task.outcome.finishedAt = EventLoop.monotonicMilliseconds()
        report(task.plan, task.outcome)
    }
}
