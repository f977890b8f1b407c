import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket on `URLSessionWebSocketTask`: the transport on Apple platforms.
///
/// The task says it is open only to a delegate, so `connect` sends a ping and waits for its pong: the pong comes
/// once the 101 is in, or the ping fails with the handshake's failure (the refusal's status from `task.response`).
final class URLSessionWebSocketChannel: WebSocketChannel {
    let events: AsyncStream<WebSocketChannelEvent>
    private let continuation: AsyncStream<WebSocketChannelEvent>.Continuation
    private let task: URLSessionWebSocketTask

    private init(task: URLSessionWebSocketTask) {
        self.task = task
        (events, continuation) = AsyncStream.makeStream(of: WebSocketChannelEvent.self)
    }

    static func connect(_ request: URLRequest, session: URLSession) async throws(APIError) -> URLSessionWebSocketChannel {
        let task = session.webSocketTask(with: request)
        let channel = URLSessionWebSocketChannel(task: task)
        task.resume()
        let failure: (any Error)? = await withCheckedContinuation { opened in
            task.sendPing { opened.resume(returning: $0) }
        }
        if let failure {
            task.cancel()
            if let response = task.response as? HTTPURLResponse, let refusal = APIError.classify(response, body: nil) {
                throw refusal
            }
            throw APIError.classify(failure)
        }
        channel.startReceiving()
        return channel
    }

    private func startReceiving() {
        Task { [task, continuation] in
            while true {
                do {
                    switch try await task.receive() {
                    case .string(let text): continuation.yield(.message(.text(text)))
                    case .data(let data): continuation.yield(.message(.data(data)))
                    @unknown default: break
                    }
                } catch {
                    var ended = APIError.classify(error)
                    if task.closeCode != .invalid {
                        ended.closeCode = task.closeCode.rawValue
                        ended.closeReason = task.closeReason.map { String(decoding: $0, as: UTF8.self) }
                    } else if ended.kind != .cancelled {
                        ended.closeCode = 1006
                    }
                    continuation.yield(.ended(ended))
                    continuation.finish()
                    return
                }
            }
        }
    }

    func send(_ message: WebSocketMessage) async throws(APIError) {
        do {
            switch message {
            case .text(let text): try await task.send(.string(text))
            case .data(let data): try await task.send(.data(data))
            }
        } catch {
            throw APIError.classify(error)
        }
    }

    func ping() {
        task.sendPing { [continuation] error in
            if error == nil { continuation.yield(.pong) }
        }
    }

    func close(code: Int, reason: String) {
        let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: code) ?? .normalClosure
        task.cancel(with: closeCode, reason: reason.isEmpty ? nil : Data(reason.utf8))
    }

    func abort() {
        task.cancel()
    }
}
