import Foundation

/// Runs blocking socket work on a thread of its own and waits for it: a paced read or write blocks for seconds,
/// which on a cooperative-pool thread would starve whatever else the suite runs there (URLSession's work, index
/// builds, other tests' sleeps).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
