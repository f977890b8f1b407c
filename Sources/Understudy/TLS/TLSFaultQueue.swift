import Foundation
import UnderstudyLocking

/// The TLS faults set on the server: those waiting for the next handshakes, oldest first (each takes the next
/// `times` connections), and those set for an SNI name. Set by the admin API and scenarios (on the loop thread, or
/// before the server starts) and taken as connections are accepted; locked, so a test may read it too.
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
        /// Lower-cased SNI names and their fault, in the order set.
        var byServerName: [(name: String, fault: TLSFaultKind)] = []
        var presentedCount = 0
        var recent: [Presented] = []
    }

    private let state = Locked(State())
    /// The names the fault certificates carry (the server's own), which a fault for an SNI name must be one of.
    private let certificateNames: [SubjectName]

    /// A queue for a server whose certificates carry `certificateNames`.
    init(certificateNames: [SubjectName] = SubjectName.loopback) {
        self.certificateNames = certificateNames
    }

    /// Queues `fault` for the next `times` handshakes after those already queued.
    func add(_ fault: TLSFaultKind, times: Int) {
        state.withLock { $0.pending.append(Pending(fault: fault, remaining: times)) }
    }

    /// Sets `fault` for every handshake whose SNI name is `serverName`, in place of the one set for it before.
    func add(_ fault: TLSFaultKind, serverName: String) {
        let name = serverName.lowercased()
        state.withLock { state in
            state.byServerName.removeAll { $0.name == name }
            state.byServerName.append((name, fault))
        }
    }

    /// Sets a typed fault: queued, or for its SNI name. Check it with `problem(with:)` first.
    func add(_ fault: Fault.TLS) {
        switch fault.handshakes {
        case .next(let times): add(fault.kind, times: times)
        case .serverName(let name): add(fault.kind, serverName: name)
        }
    }

    /// Why this server cannot present `fault` as stated (see `problem(with:certificateNames:)`), or nil.
    func problem(with fault: Fault.TLS) -> (field: String, reason: String)? {
        TLSFaultQueue.problem(with: fault, certificateNames: certificateNames)
    }

    /// Why `fault` cannot be set as stated, and the field at fault: `times` out of range, or a server name that is
    /// no host name; given a server's `certificateNames`, also a name they do not carry (the client would report a
    /// hostname mismatch rather than the fault). Nil when it can.
    static func problem(with fault: Fault.TLS, certificateNames: [SubjectName]?) -> (field: String, reason: String)? {
        switch fault.handshakes {
        case .next(let times):
            return (1...Fault.TLS.maximumTimes).contains(times) ? nil
                : ("times", "must be a whole number from 1 to \(Fault.TLS.maximumTimes)")
        case .serverName(let name):
            guard let subject = SubjectName(host: name), !subject.isAddress, !subject.value.hasPrefix("*.") else {
                return ("serverName", "must be a host name such as api.localhost (a client sends no SNI name for an IP address)")
            }
            guard let certificateNames, fault.kind.presentsServerNames,
                  !certificateNames.contains(where: { $0.covers(name) }) else { return nil }
            let carried = certificateNames.filter { !$0.isAddress }.map(\.value).joined(separator: ", ")
            return ("serverName", "the certificate is for \(carried), not '\(name)': a client would report a hostname "
                + "mismatch rather than \(fault.kind.rawValue) (add the name with --allow-host, or use wrong-host or reset)")
        }
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

    /// The fault a handshake asking for `serverName` goes wrong with: one set for that name, else the fixed name's
    /// (`expired.localhost`…), else nil; counts it as presented.
    func fault(forServerName serverName: String) -> TLSFaultKind? {
        let name = serverName.lowercased()
        let set = state.withLock { state in state.byServerName.first { $0.name == name }?.fault }
        guard let fault = set ?? TLSFaultKind(serverName: name) else { return nil }
        record(fault, serverName: serverName)
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

    /// The faults set for SNI names, in the order set.
    var byServerName: [Fault.TLS] {
        state.withLock { $0.byServerName.map { Fault.TLS($0.fault, serverName: $0.name) } }
    }

    /// How many handshakes went wrong on purpose since the server started, and the last ones, oldest first.
    var presented: (count: Int, recent: [Presented]) { state.withLock { ($0.presentedCount, $0.recent) } }

    /// Drops every queued fault and every fault set for an SNI name; returns how many there were. What was
    /// presented stays counted, and the fixed names keep presenting theirs.
    func removeAll() -> Int {
        state.withLock { state in
            defer {
                state.pending.removeAll()
                state.byServerName.removeAll()
            }
            return state.pending.count + state.byServerName.count
        }
    }
}
