import UnderstudyLocking

/// Every request a server answered, newest last, bounded by entries and by bytes; safe to read from any thread.
///
/// Each entry keeps the request's headers, so a head of 64 KiB would otherwise be kept 10,000 times over: header
/// values past `maximumHeaderValueBytes` are cut (ending in `…`), and once the entries take more than
/// `byteLimit`, the oldest are dropped as when there are more than `capacity`.
///
/// ```swift
/// #expect(server.journal.entries(path: "/products/1").count == 3)
/// ```
public final class Journal: Sendable {
    private struct Store {
        /// Oldest first from `head` on; dropped entries are set to nil at once, so their headers are freed.
        var entries: [JournalEntry?] = []
        var sizes: [Int] = []
        var head = 0
        var bytes = 0

        var count: Int { entries.count - head }

        var live: [JournalEntry] { entries[head...].compactMap { $0 } }

        /// Removes the oldest entry and hands it back, so that freeing it happens outside the lock.
        mutating func dropOldest() -> JournalEntry? {
            bytes -= sizes[head]
            let dropped = entries[head].take()
            head += 1
            defer { compactIfNeeded() }
            return dropped
        }

        private mutating func compactIfNeeded() {
            // Compacted once half the array is dropped slots, so each append costs O(1) on average.
            if head >= 64, head * 2 >= entries.count {
                entries.removeFirst(head)
                sizes.removeFirst(head)
                head = 0
            }
        }

        mutating func replace(with kept: [JournalEntry]) {
            entries = kept
            sizes = kept.map(Journal.size(of:))
            bytes = sizes.reduce(0, +)
            head = 0
        }
    }

    /// How many entries are kept; older ones are dropped first.
    public let capacity: Int
    /// About how many bytes the entries may take; older ones are dropped first.
    public let byteLimit: Int
    /// Header values are kept up to this many bytes.
    public static let maximumHeaderValueBytes = 4_096
    private let store = Locked(Store())
    private let ids = SharedCounter(1)

    init(capacity: Int, byteLimit: Int = 32 << 20) {
        self.capacity = max(1, capacity)
        self.byteLimit = max(1, byteLimit)
    }

    func nextID() -> Int {
        ids.increment()
    }

    /// Adds `entry`; it is moved into the store, not copied (an entry holds a dozen references).
    func record(_ entry: consuming JournalEntry) {
        if entry.rawHeaders.longestValue > Journal.maximumHeaderValueBytes {
            entry = entry.cuttingHeaderValues(to: Journal.maximumHeaderValueBytes)
        }
        let size = Journal.size(of: entry)
        var pending: JournalEntry? = consume entry
        // The entries pushed out are released after the lock, not while the loop thread holds it.
        let dropped = store.withLock { state -> JournalEntry? in
            state.entries.append(pending.take())
            state.sizes.append(size)
            state.bytes += size
            var oldest: JournalEntry?
            while state.count > capacity || (state.bytes > byteLimit && state.count > 1) {
                if let entry = state.dropOldest() { oldest = entry }
            }
            return oldest
        }
        _ = consume dropped
    }

    /// Entries in arrival order (a stream or a hung request is recorded when the server is done with it, but sorts
    /// by when it arrived), filtered by any of session, path and method, at most `limit` (the newest). `path` is a
    /// glob, as in a rule's `match`: `*` stands for any run of characters and `?` for one, so `/products/*` finds
    /// every product read and a path without either finds exactly that path.
    public func entries(session: String? = nil, path: String? = nil, method: String? = nil, limit: Int? = nil) -> [JournalEntry] {
        matching(session: session, path: path, method: method, limit: limit).entries
    }

    /// The entries `entries(…)` returns, and how many matched before `limit` kept the newest.
    func matching(session: String?, path: String?, method: String?, limit: Int?) -> (entries: [JournalEntry], total: Int) {
        let all = store.withLock { $0.live }
        let matching = all.filter { entry in
            (session == nil || entry.session == session) && (path.map { Glob.matches($0, entry.path) } ?? true)
                && (method == nil || entry.method == method?.uppercased())
        }.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
        guard let limit, limit >= 0 else { return (matching, matching.count) }
        return (Array(matching.suffix(limit)), matching.count)
    }

    /// Entries recorded after the one with id `id`, in the order they were recorded (ids increase with it), at most
    /// the newest `limit`: what a live feed resuming from `Last-Event-ID: id` has not seen.
    func entries(after id: Int, limit: Int) -> [JournalEntry] {
        store.withLock { state in
            var found: [JournalEntry] = []
            var index = state.entries.count - 1
            while index >= state.head, found.count < limit, let entry = state.entries[index], entry.id > id {
                found.append(entry)
                index -= 1
            }
            return found.reversed()
        }
    }

    /// The newest `limit` entries after id `id`, oldest first, and a count of the older ones after `id` (with how
    /// many of them failed, and the newest of their ids), which are not copied: what a busy live feed sends.
    func newest(after id: Int, limit: Int) -> (entries: [JournalEntry], older: Int, olderErrors: Int, olderThrough: Int) {
        store.withLock { state in
            var found: [JournalEntry] = []
            var older = 0
            var errors = 0
            var through = 0
            var index = state.entries.count - 1
            while index >= state.head, let entry = state.entries[index], entry.id > id {
                if found.count < limit {
                    found.append(entry)
                } else {
                    if older == 0 { through = entry.id }
                    older += 1
                    if entry.status == 0 || entry.status >= 400 { errors += 1 }
                }
                index -= 1
            }
            return (found.reversed(), older, errors, through)
        }
    }

    /// The id of the newest entry, or 0 when there is none.
    var newestID: Int {
        store.withLock { state in state.entries.last.flatMap { $0?.id } ?? 0 }
    }

    /// How many entries there are now.
    public var count: Int {
        store.withLock { $0.count }
    }

    /// About how many bytes the entries take now (the figure `byteLimit` bounds).
    public var byteCount: Int {
        store.withLock { $0.bytes }
    }

    /// Forgets every entry, or one session's; returns how many went.
    @discardableResult
    public func clear(session: String? = nil) -> Int {
        store.withLock { state in
            let ordered = state.live
            let kept = session == nil ? [] : ordered.filter { $0.session != session }
            state.replace(with: kept)
            return ordered.count - kept.count
        }
    }

    /// An entry's weight against `byteLimit`: its strings, plus a fixed share for the rest of it.
    static func size(of entry: JournalEntry) -> Int {
        var bytes = 160 + entry.method.utf8.count + entry.target.utf8.count
            + (entry.session?.utf8.count ?? 0) + (entry.rule?.utf8.count ?? 0) + (entry.fault?.utf8.count ?? 0)
        bytes += 32 * entry.rawHeaders.count + entry.rawHeaders.textByteCount
        bytes += 48 * (entry.socket?.records.count ?? 0)
        return bytes
    }
}
