import UnderstudyLocking

/// The TLS faults waiting for the next handshakes, oldest first: each takes the next `times` connections. Added by
/// the admin API (on the loop thread) and taken as connections are accepted; locked, so a test may read it too.
final class TLSFaultQueue: Sendable {
    /// One fault and how many more handshakes it takes.
    struct Pending: Equatable, Sendable {
        let fault: TLSFault
        var remaining: Int
    }

    private let pending = Locked<[Pending]>([])

    /// Queues `fault` for the next `times` handshakes after those already queued.
    func add(_ fault: TLSFault, times: Int) {
        pending.withLock { $0.append(Pending(fault: fault, remaining: times)) }
    }

    /// The fault the handshake starting now goes wrong with, if any; counts it.
    func next() -> TLSFault? {
        pending.withLock { queue in
            guard !queue.isEmpty else { return nil }
            let fault = queue[0].fault
            queue[0].remaining -= 1
            if queue[0].remaining == 0 { queue.removeFirst() }
            return fault
        }
    }

    /// What is queued, oldest first.
    var queued: [Pending] { pending.withLock { $0 } }

    /// Drops every queued fault; returns how many there were.
    func removeAll() -> Int {
        pending.withLock { queue in
            defer { queue.removeAll() }
            return queue.count
        }
    }
}
