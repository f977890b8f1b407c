import Foundation
import UnderstudyLocking

/// The TLS faults waiting for the next handshakes, oldest first: each takes the next `times` connections. Added by
/// the admin API (on the loop thread) and taken as connections are accepted; locked, so a test may read it too.
///
/// It also keeps what was presented: a handshake that fails on purpose never becomes a request, so the journal
/// cannot show it, and `GET /__understudy/tls-faults` does instead.
final class TLSFaultQueue: Sendable {
    /// One fault and how many more handshakes it takes.
    struct Pending: Equatable, Sendable {
        let fault: TLSFaultKind
        var remaining: Int
    }

    /// One handshake that went wrong on purpose: when, with what, and the SNI name that chose it (nil when a
    /// queued fault did).
    struct Presented: Equatable, Sendable {
        let fault: TLSFaultKind
        let serverName: String?
        /// Seconds since 1970.
        let time: Double
    }

    /// How many presented handshakes are kept, the last ones.
    static let keptPresented = 50

    private struct State {
        var pending: [Pending] = []
        var presentedCount = 0
        var recent: [Presented] = []
    }

    private let state = Locked(State())

    /// Queues `fault` for the next `times` handshakes after those already queued.
    func add(_ fault: TLSFaultKind, times: Int) {
        state.withLock { $0.pending.append(Pending(fault: fault, remaining: times)) }
    }

    /// The fault the handshake starting now goes wrong with, if any; counts it as presented.
    func next() -> TLSFaultKind? {
        let fault: TLSFaultKind? = state.withLock { state in
            guard !state.pending.isEmpty else { return nil }
            let fault = state.pending[0].fault
            state.pending[0].remaining -= 1
            if state.pending[0].remaining == 0 { state.pending.removeFirst() }
            return fault
        }
        if let fault { record(fault, serverName: nil) }
        return fault
    }

    /// Counts a handshake that went wrong with `fault` because the client asked for it by SNI name.
    func record(_ fault: TLSFaultKind, serverName: String?) {
        let presented = Presented(fault: fault, serverName: serverName, time: Date().timeIntervalSince1970)
        state.withLock { state in
            state.presentedCount += 1
            state.recent.append(presented)
            if state.recent.count > TLSFaultQueue.keptPresented { state.recent.removeFirst() }
        }
    }

    /// What is queued, oldest first.
    var queued: [Pending] { state.withLock { $0.pending } }

    /// How many handshakes went wrong on purpose since the server started, and the last ones, oldest first.
    var presented: (count: Int, recent: [Presented]) { state.withLock { ($0.presentedCount, $0.recent) } }

    /// Drops every queued fault; returns how many there were. What was presented stays counted.
    func removeAll() -> Int {
        state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending.count
        }
    }
}
