import CLibevent

extension ReplyWriter {
    /// Sends the feed's head, subscribes the connection to the control room's feed, and ticks the feed (state
    /// comparison, heartbeats, the backlog check) on the connection's timer while it lasts.
    func startFeed(_ task: ConnectionTask, _ request: FeedRequest) {
        if let bufferEvent = task.bufferEvent {
            // Small, as for /products/stream: a viewer that stops reading is noticed after kilobytes.
            var size = ReplyWriter.streamSendBufferBytes
            setsockopt(bufferevent_getfd(bufferEvent), SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        startReply(task, contentLength: nil)
        feed.subscribe(task, request, now: EventLoop.monotonicMilliseconds())
        guard task.machine.canWrite else { return }
        task.onTick = { [unowned self] task in
            // A viewer that stopped reading while the feed was quiet is dropped here rather than at the next event.
            if task.unflushedBytes > maximumStreamBacklogBytes {
                close(task, reset: false)
                return
            }
            feed.tick(now: EventLoop.monotonicMilliseconds())
        }
        startTimer(task, everyMilliseconds: LiveFeed.flushMilliseconds)
    }
}

/// A feed subscriber is its open reply: events are chunks of it, and one that has fallen more than the stream
/// backlog limit behind is closed, as a slow `/products/stream` reader is. The backlog is judged before a write, as
/// what the reader has not taken of the earlier ones: a batch of events is written whole, and may alone be larger.
extension ConnectionTask: FeedSink {
    func send(_ bytes: [UInt8]) -> Bool {
        guard let writer, machine.canWrite else { return false }
        guard unflushedBytes <= writer.maximumStreamBacklogBytes else {
            writer.close(self, reset: false)
            return false
        }
        writer.write(self, bytes)
        return true
    }

    func end() {
        writer?.finish(self)
    }
}
