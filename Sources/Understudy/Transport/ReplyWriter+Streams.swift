import CLibevent
import Foundation

extension ReplyWriter {
    /// The kernel's send buffer for a stream: small, so a reader that stops reading is noticed (its bytes pile up
    /// in the server, where they are counted) after kilobytes rather than the megabytes Linux would buffer.
    static let streamSendBufferBytes: Int32 = 8 << 10

    /// Sends the head and the `retry:` field, then lets the stream's timer write events.
    func startStream(_ task: ConnectionTask, _ plan: StreamPlan) {
        if let bufferEvent = task.bufferEvent {
            var size = ReplyWriter.streamSendBufferBytes
            setsockopt(bufferevent_getfd(bufferEvent), SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        startReply(task, contentLength: nil)
        let stream = EventStream(plan: plan, catalog: streamCatalog, now: EventLoop.monotonicMilliseconds(),
                                 maximumUnflushedBytes: maximumStreamBacklogBytes)
        task.stream = stream
        stream.start(task, writer: self)
        guard task.machine.canWrite, let first = stream.nextWake(now: EventLoop.monotonicMilliseconds()) else { return }
        // One one-shot timer per stream, re-armed for exactly the next event, heartbeat or dripped byte.
        task.onTick = { [unowned self] task in
            guard let stream = task.stream else { return }
            if let next = stream.tick(task, writer: self, now: EventLoop.monotonicMilliseconds()) {
                schedule(task, inMilliseconds: next)
            }
        }
        schedule(task, inMilliseconds: first)
    }
}
