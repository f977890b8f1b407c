import Synchronization

/// Every request a server answered, newest last, in a bounded ring; safe to read from any thread.
///
/// ```swift
/// #expect(server.journal.entries(path: "/products/1").count == 3)
/// ```
public final class Journal: Sendable {
    private struct Ring {
        var entries: [JournalEntry] = []
        var start = 0
        var nextID = 1
    }

    /// How many entries are kept; older ones are dropped first.
    public let capacity: Int
    private let ring = Mutex(Ring())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func nextID() -> Int {
        ring.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    func record(_ entry: JournalEntry) {
        ring.withLock { state in
            if state.entries.count < capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.start] = entry
                state.start = (state.start + 1) % capacity
            }
        }
    }

    /// Entries in arrival order (a stream or a hung request is recorded when the server is done with it, but sorts
    /// by when it arrived), filtered by any of session, exact path and method, at most `limit` (the newest).
    public func entries(session: String? = nil, path: String? = nil, method: String? = nil, limit: Int? = nil) -> [JournalEntry] {
        let all = ring.withLock { state in
            Array(state.entries[state.start...] + state.entries[..<state.start])
        }
        let matching = all.filter { entry in
            (session == nil || entry.session == session) && (path == nil || entry.path == path)
                && (method == nil || entry.method == method?.uppercased())
        }.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
        guard let limit, limit >= 0 else { return matching }
        return Array(matching.suffix(limit))
    }

    /// How many entries there are now.
    public var count: Int {
        ring.withLock { $0.entries.count }
    }

    /// Forgets every entry, or one session's; returns how many went.
    @discardableResult
    public func clear(session: String? = nil) -> Int {
        ring.withLock { state in
            let ordered = Array(state.entries[state.start...] + state.entries[..<state.start])
            let kept = session == nil ? [] : ordered.filter { $0.session != session }
            state.entries = kept
            state.start = 0
            return ordered.count - kept.count
        }
    }
}
