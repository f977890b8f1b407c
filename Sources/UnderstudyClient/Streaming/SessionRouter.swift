import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking

/// Receives one task's delegate events from the ``SessionRouter``.
protocol TaskEventSink: Sendable {
    func receive(_ response: URLResponse, task: URLSessionTask)
    func receive(_ data: Data, task: URLSessionTask)
    func sent(_ totalBytesSent: Int64, of expected: Int64)
    func complete(_ error: (any Error)?)
}

/// The client session's one delegate: routes each streamed task's events to the sink registered for it.
///
/// Tasks sent through `data(for:)` have no sink; their events are ignored here and reach the async call instead.
///
/// `@unchecked Sendable` because `NSObject` is not `Sendable` on Linux; the only stored state is the `Locked` table,
/// and URLSession calls the delegate on its own serial queue.
final class SessionRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let sinks = Locked<[Int: any TaskEventSink]>([:])
    /// The keys servers must present one of (Apple platforms only).
    let pinnedKeys: PinnedKeys?
    /// Refused pin checks not yet classified, by host: the cancelled request they caused is a pin mismatch.
    let pinRejections = Locked<[String: Int]>([:])

    init(pinnedKeys: PinnedKeys? = nil) {
        self.pinnedKeys = pinnedKeys
    }

    /// Routes `task`'s events to `sink`; call before `resume()`.
    func register(_ task: URLSessionTask, sink: any TaskEventSink) {
        sinks.withLock { $0[task.taskIdentifier] = sink }
    }

    private func sink(for task: URLSessionTask) -> (any TaskEventSink)? {
        sinks.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // Always allow: Linux ignores the disposition anyway, and a rejected status's body is the error message.
        sink(for: dataTask)?.receive(response, task: dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        sink(for: dataTask)?.receive(data, task: dataTask)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        sink(for: task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let sink = sinks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        sink?.complete(error)
    }
}
