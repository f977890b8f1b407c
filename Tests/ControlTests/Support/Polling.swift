import Foundation

/// Waits on a condition, never a fixed sleep.
enum Polling {
    struct TimedOut: Error {}

    static func until(seconds: Int, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut()
    }
}
