#if os(Linux)
import Synchronization
#endif

/// An `Int` that any thread may read, set or count up without waiting for a lock, where the platform allows it.
///
/// On Linux it is a `Synchronization.Atomic`. Apple platforms have `Atomic` only from macOS 15 and iOS 18, below
/// the package's floor, so there it is a `Locked` (a few tens of nanoseconds more, off the platforms the server
/// is measured on).
package final class SharedCounter: Sendable {
    #if os(Linux)
    private let value: Atomic<Int>
    #else
    private let value: Locked<Int>
    #endif

    /// A counter starting at `initial`.
    package init(_ initial: Int) {
        #if os(Linux)
        value = Atomic(initial)
        #else
        value = Locked(initial)
        #endif
    }

    /// The value now (acquiring: what was stored before a `store` is seen after it).
    package func load() -> Int {
        #if os(Linux)
        value.load(ordering: .acquiring)
        #else
        value.withLock { $0 }
        #endif
    }

    /// Sets the value (releasing).
    package func store(_ newValue: Int) {
        #if os(Linux)
        value.store(newValue, ordering: .releasing)
        #else
        value.withLock { $0 = newValue }
        #endif
    }

    /// Adds one and returns the value before it (relaxed: for ids, not for ordering other memory).
    package func increment() -> Int {
        #if os(Linux)
        value.wrappingAdd(1, ordering: .relaxed).oldValue
        #else
        value.withLock { current in
            defer { current &+= 1 }
            return current
        }
        #endif
    }
}
