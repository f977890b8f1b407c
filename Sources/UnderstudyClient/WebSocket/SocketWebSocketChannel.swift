import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyLocking
import UnderstudyWebSocket

/// A WebSocket over a plain TCP socket (`ws://`), framed by UnderstudyWebSocket's codec: the opening handshake
/// (its `Sec-WebSocket-Accept` checked), masked frames out, the server's frames read and checked as RFC 6455 says,
/// pings answered, the closing handshake.
///
/// `@unchecked Sendable` at the POSIX bridge: the descriptor is set once; every write and the final `close(2)` happen
/// under `state`'s lock, so no write goes to a descriptor closed or reused; the reader's state belongs to its own
/// thread alone.
final class SocketWebSocketChannel: WebSocketChannel, @unchecked Sendable {
    let events: AsyncStream<WebSocketChannelEvent>
    private let continuation: AsyncStream<WebSocketChannelEvent>.Continuation
    private let descriptor: Int32
    /// Whether the descriptor is closed, and whether our close frame went out.
    private let state = Locked((closed: false, sentClose: false))

    init(descriptor: Int32, leftover: [UInt8]) {
        self.descriptor = descriptor
        (events, continuation) = AsyncStream.makeStream(of: WebSocketChannelEvent.self)
        let thread = Thread { [self] in read(from: leftover) }
        thread.name = "UnderstudyClient WebSocket reader"
        thread.start()
    }

    /// Opens `request`'s `ws://` URL: connect and handshake on a thread of their own (they block), within the
    /// request's timeout.
    static func connect(_ request: URLRequest) async throws(APIError) -> SocketWebSocketChannel {
        let opened: Result<SocketWebSocketChannel, APIError> = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: open(request)) }.start()
        }
        return try opened.get()
    }

    func send(_ message: WebSocketMessage) async throws(APIError) {
        let frame = switch message {
        case .text(let text): WebSocketFrame(.text, Array(text.utf8))
        case .data(let data): WebSocketFrame(.binary, Array(data))
        }
        guard write(frame) else { throw APIError(.connectionLost, underlying: "the WebSocket is closed") }
    }

    func ping() {
        _ = write(WebSocketFrame(.ping, Array("understudy".utf8)))
    }

    func close(code: Int, reason: String) {
        guard let code = UInt16(exactly: code) else { return abort() }
        _ = write(.close(WebSocketCloseCode(rawValue: code), reason: reason), isClose: true)
    }

    func abort() {
        state.withLock { if !$0.closed { _ = Posix.shutdown(descriptor, Posix.shutBoth) } }
    }

    /// Writes one masked frame; false once the connection is closed (or after our close frame, but for it).
    @discardableResult
    private func write(_ frame: WebSocketFrame, isClose: Bool = false) -> Bool {
        let bytes = frame.encoded(mask: (0..<4).map { _ in UInt8.random(in: 0...255) })
        return state.withLock { state in
            guard !state.closed, !state.sentClose else { return false }
            if isClose { state.sentClose = true }
            return SocketWebSocketChannel.writeAll(descriptor, bytes)
        }
    }

    /// The reader's thread: frames in until the connection ends, then the descriptor is closed.
    private func read(from leftover: [UInt8]) {
        var reader = WebSocketReader(maximumMessageBytes: 16 << 20, readsClientFrames: false)
        var pending = leftover
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var ending: APIError?
        while ending == nil {
            if pending.isEmpty {
                let count = buffer.withUnsafeMutableBytes { Posix.recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    var lost = APIError(.connectionLost, underlying: count == 0 ? "the server closed the connection without a close frame"
                                                                           : "the connection was reset (\(String(cString: strerror(errno))))")
                    lost.closeCode = 1006
                    ending = lost
                    break
                }
                pending = Array(buffer[..<count])
            }
            for event in reader.receive(pending) {
                switch event {
                case .message(let opcode, let payload):
                    continuation.yield(.message(opcode == .text ? .text(String(decoding: payload, as: UTF8.self)) : .data(Data(payload))))
                case .ping(let payload):
                    write(WebSocketFrame(.pong, payload))
                case .pong:
                    continuation.yield(.pong)
                case .close(let code, let reason):
                    // Answered with the server's code, unless our own close is what it answers.
                    write(.close(code ?? .normal, reason: ""), isClose: true)
                    var closed = APIError(.connectionLost, underlying: "the server closed the WebSocket")
                    closed.closeCode = Int(code?.rawValue ?? 1005)
                    closed.closeReason = reason
                    ending = closed
                }
            }
            pending = []
            if ending == nil, let failure = reader.failure {
                // The server broke the protocol: the client fails the connection with the code §7.4.1 names.
                write(.close(failure.code, reason: failure.reason), isClose: true)
                ending = APIError(.invalidResponse, underlying: "the server's frames broke RFC 6455: \(failure.reason)")
            }
        }
        state.withLock { state in
            state.closed = true
            _ = Posix.close(descriptor)
        }
        continuation.yield(.ended(ending ?? APIError(.connectionLost)))
        continuation.finish()
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Posix.send(descriptor, $0.baseAddress, $0.count, Posix.noSignal) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
