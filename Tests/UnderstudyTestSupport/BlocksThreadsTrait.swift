import Foundation
import Testing
import UnderstudyLocking

/// A suite trait for tests that block the thread they run on (a raw socket's `recv` up to its receive timeout, a
/// child process polled for its first line): they run on threads of their own, apart from Swift concurrency's
/// shared pool.
///
/// Why: Swift concurrency's shared pool has one thread per core on Linux (two on this machine) and does not grow
/// when one blocks. Measured (2026-12-05, a program of its own): four tasks in `usleep(3 s)` held a 100 ms
/// `Task.sleep` elsewhere in the process back for 6 s. In the full suite, loopback tests blocked in `recv` left the
/// integration suite's URLSession continuations and timers waiting past Swift Testing's time limit under
/// ThreadSanitizer (an SSE reconnection after a 1 s `retry:`, a 1 s idle timeout, a heartbeat).
package struct BlocksThreadsTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is attached to.
    package var isRecursive: Bool { true }

    /// Runs the test with ``BlockingTestsExecutor`` as its task executor, so the test and the child tasks it
    /// starts leave the shared pool to the rest of the process.
    package func provideScope(for test: Test, testCase: Test.Case?,
                              performing function: @Sendable () async throws -> Void) async throws {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            try await withTaskExecutorPreference(BlockingTestsExecutor.shared) { try await function() }
        } else {
            try await function()
        }
    }
}

extension BlocksThreadsTrait {
    /// Fails the running test when `what`, about to block its thread, runs on Swift concurrency's shared pool:
    /// its suite needs `.blocksThreads`, or the work `offThePool`. The blocking helpers call it, so a test that
    /// forgets the trait fails where it blocks, instead of slowing every other test of the run.
    ///
    /// On the pool means: in a task, on no thread of ``BlockingTestsExecutor``'s and not the main thread. A thread
    /// a test starts itself (`offThePool`) runs no task.
    package static func expectOffTheSharedPool(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
              withUnsafeCurrentTask(body: { $0 != nil }), !Thread.isMainThread,
              Thread.current.threadDictionary[BlockingTestsExecutor.marker] == nil else { return }
        Issue.record("\(what) blocks a thread of Swift concurrency's shared pool: give the suite `.blocksThreads`, or run it in `offThePool`",
                     sourceLocation: sourceLocation)
    }
}

extension Trait where Self == BlocksThreadsTrait {
    /// The suite's tests block threads, so they run off Swift concurrency's shared pool.
    package static var blocksThreads: Self { BlocksThreadsTrait() }
}

/// A task executor of its own threads, one per core, as many as Swift concurrency's shared pool has.
///
/// A pool, not a thread per job: with one each, every blocking suite ran at once (a thousand sockets' delays
/// measured 5.4 s instead of under 3 s under ThreadSanitizer, a CLI's 0.5 s probe timed out), where the shared
/// pool had held them to one per core. These threads keep that pace for the blocking suites, and the shared pool is
/// left to everything else.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
package final class BlockingTestsExecutor: TaskExecutor {
    /// The one executor the trait uses.
    package static let shared = BlockingTestsExecutor(threads: ProcessInfo.processInfo.activeProcessorCount)

    /// The key a thread of this executor carries in its `threadDictionary`: how `expectOffTheSharedPool` knows
    /// one. (Not the thread's name: on Linux the kernel's name is the starting thread's, often a pool thread's.)
    static let marker = "understudy.blocking-tests"

    private let jobs = Locked<[UnownedJob]>([])
    /// Counts the queued jobs: a thread waits on it, then takes one.
    private let queued = DispatchSemaphore(value: 0)

    private init(threads: Int) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in
                Thread.current.threadDictionary[BlockingTestsExecutor.marker] = true
                work()
            }
            thread.name = "blocking-tests-\(index)"
            thread.start()
        }
    }

    /// Queues `job` for the next free thread.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        queued.signal()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            queued.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: executor)
        }
    }
}
