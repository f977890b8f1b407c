import Foundation
import UnderstudyLocking
import UnderstudyRecording

/// Where forwarded exchanges are recorded (`--record DIR`, or the admin API's `/__understudy/recording`), and how
/// many were. The writer redacts and writes on its own queue; the loop only hands it a value. The loop records;
/// the server flushes from its own thread when it stops, hence the lock.
final class Recorder: Sendable {
    struct State {
        var writer: RecordingWriter?
        /// Exchanges handed to the current writer.
        var recorded = 0
        /// Forwarded exchanges left out: the body was over `UpstreamExchange.maximumKeptBytes`, or the reply was cut
        /// short (by a fault, the client leaving, or the upstream failing).
        var skipped = 0
    }

    private let state: Locked<State>

    init(writer: RecordingWriter?) {
        state = Locked(State(writer: writer))
    }

    var isRecording: Bool { state.withLock { $0.writer != nil } }
    var current: State { state.withLock { $0 } }

    /// Records into `writer` from now on (nil: stops); returns the writer it replaces, to be flushed off the loop.
    @discardableResult
    func use(_ writer: RecordingWriter?) -> RecordingWriter? {
        state.withLock { state in
            defer { state = State(writer: writer) }
            return state.writer
        }
    }

    /// Hands a forwarded request and the upstream's whole reply to the writer.
    func record(_ request: HTTPRequest, _ reply: CapturedReply?) {
        let writer = state.withLock { state -> RecordingWriter? in
            guard state.writer != nil else { return nil }
            if reply == nil { state.skipped += 1 } else { state.recorded += 1 }
            return reply == nil ? nil : state.writer
        }
        guard let writer, let reply else { return }
        writer.append(RecordedExchange(
            request: RecordedExchange.Request(
                method: request.method, path: String(request.path),
                // `_fault` asked this server for a fault: it is not part of the API being recorded.
                query: request.query.pairs.filter { $0.name != "_fault" }.map { RecordedExchange.QueryItem($0.name, $0.value) },
                headers: request.headers.decoded.map { RecordedExchange.Header($0.name, $0.value) },
                body: request.body),
            response: RecordedExchange.Response(
                status: reply.status, headers: reply.headers.map { RecordedExchange.Header($0.name, $0.value) },
                body: reply.body)))
    }
}
