import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking

/// Feeds one task's events through a ``ByteStreamState`` and performs the actions outside the lock.
final class StreamSink: TaskEventSink {
    typealias Head = CheckedContinuation<HTTPURLResponse, any Error>

    private let state: Locked<ByteStreamState<Head>>
    private let body: AsyncThrowingStream<Data, any Error>.Continuation
    private let onSent: (@Sendable (Int64, Int64) -> Void)?
    private let onReceive: (@Sendable () -> Void)?

    init(head: Head, body: AsyncThrowingStream<Data, any Error>.Continuation,
         onSent: (@Sendable (Int64, Int64) -> Void)? = nil, onReceive: (@Sendable () -> Void)? = nil) {
        self.state = Locked(ByteStreamState(head: head))
        self.body = body
        self.onSent = onSent
        self.onReceive = onReceive
    }

    func receive(_ response: URLResponse, task: URLSessionTask) {
        perform(state.withLock { $0.receive(response) }, task: task)
    }

    func receive(_ data: Data, task: URLSessionTask) {
        onReceive?()
        perform(state.withLock { $0.receive(data) }, task: task)
    }

    func sent(_ totalBytesSent: Int64, of expected: Int64) {
        onSent?(totalBytesSent, expected)
    }

    func complete(_ error: (any Error)?) {
        perform(state.withLock { $0.complete(error) }, task: nil)
    }

    private func perform(_ action: ByteStreamState<Head>.Action, task: URLSessionTask?) {
        switch action {
        case .none:
            break
        case .deliverHead(let head, let response):
            head.resume(returning: response)
        case .yield(let data):
            body.yield(data)
        case .failHead(let head, let error):
            head.resume(throwing: error)
            body.finish(throwing: error)
        case .finishBody(let error):
            if let error { body.finish(throwing: error) } else { body.finish() }
        case .cancelTask:
            task?.cancel()
        }
    }
}
