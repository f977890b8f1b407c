#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only while holding its lock.
///
/// The same role as `Synchronization.Mutex`, over a `pthread_mutex_t`: on Linux `Mutex` locks with raw futex
/// system calls, which ThreadSanitizer cannot see, so every `withLock` from two threads is reported as a race on
/// the protected value. Understudy is meant to run inside its users' test processes, often under TSan; a lock
/// it can see keeps their reports (and ours) about real races only. Uncontended, it costs about what `Mutex` does.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, with the mutex held.
public final class Locked<Value>: @unchecked Sendable {
    // Internal to the module but inlinable: `withLock` is generic, and across modules an unspecialised call cost
    // the journal's lock ~1k instructions per request (value witnesses for every copy). Not checked for exclusive
    // access at run time: the mutex already makes every access exclusive, and the check cost ~75 instructions a call.
    @exclusivity(unchecked) @usableFromInline var value: Value
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and the value open for change; keep it short, and never suspend in it.
    ///
    /// - Parameter body: Reads or changes the value.
    /// - Returns: What `body` returns.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
