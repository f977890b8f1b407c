import Foundation
import UnderstudyLocking

/// Indexes of one collection (search text, sort orders, a filtered path's values), each built the first time it is needed and kept.
///
/// A request whose index is missing asks for it ahead of routing (`prepare`): the index is built on another thread
/// and the request waits for it without holding the event loop, which a 100,000-item build would hold for 0.2 to
/// 0.4 s. Requests that need an index already being built wait for that build; `index(_:build:)` builds on the
/// caller's thread what nobody prepared (a unit test, or a route no request prepares for).
///
/// The keys may come from requests (`sortBy`, a filter's `key`), so at most `limit` built indexes are kept; past that they start over.
final class KeptIndexes<Index: Sendable>: Sendable {
    private enum Entry {
        case built(Index)
        /// Building on another thread; what to call once it is built.
        case building([@Sendable () -> Void])
    }

    private let entries = Locked<[String: Entry]>([:])
    private let limit: Int
    private let builds: IndexBuilds

    init(limit: Int = 16, builds: IndexBuilds = .background) {
        self.limit = limit
        self.builds = builds
    }

    /// The index `key`, built by `build` on this thread when it is not kept.
    func index(_ key: String, build: () -> Index) -> Index {
        if case .built(let kept)? = entries.withLock({ $0[key] }) { return kept }
        let built = build()
        keep(built, as: key)
        return built
    }

    /// Whether the index `key` is built and kept: a request that needs it is answered at once.
    func isKept(_ key: String) -> Bool {
        if case .built? = entries.withLock({ $0[key] }) { return true }
        return false
    }

    /// Starts building the index `key` on another thread unless it is kept, and calls `ready` (on that thread) once
    /// it is. False when it is kept already: `ready` is never called, the caller goes on now.
    func prepare(_ key: String, build: @escaping @Sendable () -> Index, then ready: @escaping @Sendable () -> Void) -> Bool {
        let starts: Bool? = entries.withLock { entries in
            switch entries[key] {
            case .built?:
                return nil
            case .building(let waiting)?:
                entries[key] = .building(waiting + [ready])
                return false
            case nil:
                entries[key] = .building([ready])
                return true
            }
        }
        guard let starts else { return false }
        if starts {
            builds.run { [self] in keep(build(), as: key) }
        }
        return true
    }

    /// Keeps `index` and calls whoever waited for it.
    private func keep(_ index: Index, as key: String) {
        let waiting: [@Sendable () -> Void] = entries.withLock { entries in
            let waiting: [@Sendable () -> Void]
            if case .building(let callbacks)? = entries[key] { waiting = callbacks } else { waiting = [] }
            let builtCount = entries.values.lazy.filter { if case .built = $0 { true } else { false } }.count
            if builtCount >= limit {
                entries = entries.filter { if case .building = $0.value { true } else { false } }
            }
            entries[key] = .built(index)
            return waiting
        }
        for ready in waiting { ready() }
    }
}

/// Where indexes asked for ahead of routing are built: on a shared background queue, or where a test holds them.
struct IndexBuilds: Sendable {
    /// Runs a build, off the caller's thread.
    let run: @Sendable (_ build: @escaping @Sendable () -> Void) -> Void

    /// A thread of its own per build (one per index a process ever builds), not a worker of the global queues: a
    /// process whose workers are all blocked (a test suite's socket reads, an app's own work) would leave the
    /// waiting request unanswered until one frees up.
    static let background = IndexBuilds { build in
        let thread = Thread(block: build)
        thread.name = "understudy.index-build"
        thread.start()
    }
}
