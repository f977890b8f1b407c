import Foundation
import UnderstudyLocking
import UnderstudyRecording

/// What Understudy keeps of the exchanges it forwards: the recording being written (`--record DIR`, or the admin
/// API's `/__understudy/recording`), the last exchanges (so a snapshot can write them out after the fact), the
/// routes recorded, and the requests a replayed recording missed. The writer redacts and writes on its own queue;
/// the loop only hands it values. The loop records; the admin API and the server (when it stops) read, hence
/// the lock.
final class Recorder: Sendable {
    struct State {
        var writer: RecordingWriter?
        /// Exchanges handed to the current writer.
        var recorded = 0
        /// Forwarded exchanges left out: the body was over `UpstreamExchange.recordedBodyLimit`, or the reply was cut
        /// short (by a fault, the client leaving, or the upstream failing).
        var skipped = 0
        /// `METHOD /path` of every exchange recorded by the current writer.
        var routes: Set<String> = []
        /// The last whole exchanges forwarded, for a snapshot.
        var recent = RecentExchanges(maximumCount: Recorder.maximumRecentExchanges, maximumBytes: Recorder.maximumRecentBytes)
        /// Requests the replayed recording had no answer for: how many, and the last few (`GET /x?a=1`).
        var misses = 0
        var recentMisses: [String] = []
    }

    static let maximumRecentExchanges = 1_000
    static let maximumRecentBytes = 32 << 20
    static let maximumRecentMisses = 50

    private let state: Locked<State>

    init(writer: RecordingWriter?) {
        state = Locked(State(writer: writer))
    }

    var isRecording: Bool { state.withLock { $0.writer != nil } }
    /// Whether the recording's disk has fallen behind: a forwarded request waits until it catches up.
    var isBehind: Bool { state.withLock { $0.writer?.isBehind ?? false } }
    var current: State { state.withLock { $0 } }

    /// Records into `writer` from now on (nil: stops); returns the writer it replaces.
    @discardableResult
    func use(_ writer: RecordingWriter?) -> RecordingWriter? {
        state.withLock { state in
            defer {
                state.writer = writer
                state.recorded = 0
                state.skipped = 0
                state.routes = []
            }
            return state.writer
        }
    }

    /// A forwarded exchange is over: it is kept for a snapshot and, while recording, handed to the writer.
    func forwarded(_ request: HTTPRequest, _ reply: CapturedReply?) {
        let writer = state.withLock { state -> RecordingWriter? in
            guard let reply else {
                if state.writer != nil { state.skipped += 1 }
                return nil
            }
            state.recent.append((request, reply))
            guard state.writer != nil else { return nil }
            state.recorded += 1
            state.routes.insert("\(request.method) \(request.path)")
            return state.writer
        }
        guard let writer, let reply else { return }
        writer.append(Recorder.exchange(request, reply))
    }

    /// A request the replayed recording did not hold.
    func missed(_ request: HTTPRequest) {
        state.withLock { state in
            state.misses += 1
            state.recentMisses.append("\(request.method) \(request.target)")
            if state.recentMisses.count > Recorder.maximumRecentMisses { state.recentMisses.removeFirst() }
        }
    }

    /// Writes the kept exchanges into `writer`; returns how many.
    func snapshot(into writer: RecordingWriter) -> Int {
        let recent = state.withLock { $0.recent.inOrder }
        for (request, reply) in recent { writer.append(Recorder.exchange(request, reply)) }
        return recent.count
    }

    static func exchange(_ request: HTTPRequest, _ reply: CapturedReply) -> RecordedExchange {
        var recorded = request.recorded(allHeaders: true)
        // `_fault` asked this server for a fault: it is not part of the API being recorded.
        recorded.query.removeAll { $0.name == "_fault" }
        return RecordedExchange(
            request: recorded,
            response: RecordedExchange.Response(
                status: reply.status, headers: reply.headers.map { RecordedExchange.Header($0.name, $0.value) },
                body: reply.body, messages: reply.messages, messagesLeftOut: reply.messagesLeftOut))
    }
}
