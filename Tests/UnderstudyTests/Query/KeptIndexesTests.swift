import Testing
@testable import Understudy
import UnderstudyLocking

/// Indexes built once and kept: asked for ahead by several requests, built once on another thread, every waiter
/// called once it is there.
@Suite struct KeptIndexesTests {
    /// Builds held until the test runs them, so what happens while one is under way is seen without timing.
    final class HeldBuilds: Sendable {
        private let queued = Locked<[@Sendable () -> Void]>([])
        var builds: IndexBuilds { IndexBuilds { [queued] build in queued.withLock { $0.append(build) } } }
        var count: Int { queued.withLock { $0.count } }

        func runAll() {
            for build in queued.withLock({ queued in defer { queued.removeAll() }; return queued }) { build() }
        }
    }

    @Test func waitersOfOneIndexShareOneBuild() {
        let held = HeldBuilds()
        let kept = KeptIndexes<[Int]>(builds: held.builds)
        let builds = Locked(0)
        let called = Locked<[String]>([])
        let build: @Sendable () -> [Int] = { builds.withLock { $0 += 1 }; return [1, 2] }
        #expect(kept.prepare("a", build: build) { called.withLock { $0.append("first") } })
        #expect(kept.prepare("a", build: build) { called.withLock { $0.append("second") } })
        #expect(held.count == 1)
        #expect(called.withLock { $0 }.isEmpty)
        held.runAll()
        #expect(called.withLock { $0 } == ["first", "second"])
        #expect(builds.withLock { $0 } == 1)
        #expect(!kept.prepare("a", build: build) { Issue.record("a kept index calls nobody back") })
        #expect(kept.index("a") { [] } == [1, 2])
    }

    @Test func anIndexNobodyPreparedIsBuiltOnTheCallersThread() {
        let held = HeldBuilds()
        let kept = KeptIndexes<Int>(builds: held.builds)
        #expect(kept.index("a") { 7 } == 7)
        #expect(kept.index("a") { 8 } == 7)
        #expect(held.count == 0)
    }

    @Test func pastTheLimitTheKeptIndexesStartOver() {
        let kept = KeptIndexes<Int>(limit: 2, builds: HeldBuilds().builds)
        _ = kept.index("a") { 1 }
        _ = kept.index("b") { 2 }
        _ = kept.index("c") { 3 }
        #expect(kept.index("a") { 10 } == 10)
        #expect(kept.index("c") { 30 } == 3)
    }
}
