import CLibevent

/// A delivery that owns its connection once its head is sent (`Delivery.readsClient`: a WebSocket after its 101).
///
/// evhttp 2.1 has no way to hand a connection over (2.2's `evws_new_session` detaches the bufferevent from its
/// connection through internals). Here the request stays evhttp's, never ended, and the bufferevent's callbacks
/// become the writer's: evhttp reads nothing more from the connection, what arrives goes to the delivery, and the
/// connection is freed through evhttp as any closed reply's is, so its close callback and the journal still see it.
extension ReplyWriter {
    /// Takes the connection from evhttp's parser: its reads become the delivery's turns, its end the task's. Called
    /// once, when the reply's head is sent.
    func takeOver(_ task: ConnectionTask) {
        guard let bufferEvent = task.bufferEvent else { return }
        connectionTakenOver(bufferEvent)
        let argument = Unmanaged.passUnretained(task).toOpaque()
        bufferevent_setcb(bufferEvent, { _, argument in
            guard let argument else { return }
            let task = Unmanaged<ConnectionTask>.fromOpaque(argument).takeUnretainedValue()
            task.writer?.clientSent(task)
        }, nil, { _, events, argument in
            guard let argument else { return }
            let task = Unmanaged<ConnectionTask>.fromOpaque(argument).takeUnretainedValue()
            task.writer?.clientLeft(task, events: events)
        }, argument)
        // No limit and no timeout of evhttp's carries over: a socket may be quiet for as long as its peers like.
        bufferevent_setwatermark(bufferEvent, Int16(EV_READ), 0, 0)
        bufferevent_set_timeouts(bufferEvent, nil, nil)
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
        // Bytes sent right behind the upgrade request were read with it.
        clientSent(task)
    }

    /// The connection's read callback: what arrived is the delivery's in its next turn.
    private func clientSent(_ task: ConnectionTask) {
        guard let bufferEvent = task.bufferEvent, let input = bufferevent_get_input(bufferEvent) else { return }
        let count = evbuffer_get_length(input)
        guard count > 0 else { return }
        // Once the delivery has taken its last step (a close under way), what the client sends is not read.
        guard !task.turns.isOver else {
            evbuffer_drain(input, count)
            return
        }
        drainEvbuffer(input, into: &task.received)
        turn(task)
    }

    /// The connection's event callback: the client closed it or it failed; either way the reply is over.
    private func clientLeft(_ task: ConnectionTask, events: Int16) {
        guard events & Int16(BEV_EVENT_EOF | BEV_EVENT_ERROR) != 0 else { return }
        close(task, reset: false)
    }
}
