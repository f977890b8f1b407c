import Foundation

/// The retry decisions for one request, as a value: each failed attempt goes in, an action comes out.
///
/// The owner performs the action (sleeping, sending, throwing); this type never sleeps, reads a clock or draws a
/// random number itself, so every path is unit-testable without time passing.
///
/// ```swift
/// var state = RetryState(policy: .standard, isReplayable: true)
/// switch state.next(after: .init(error: error, now: Date(), unit: .random(in: 0..<1))) {
/// case .retry(let delay): try await sleep(delay)
/// case .fail(let error): throw error
/// }
/// ```
package struct RetryState: Sendable {
    /// One failed attempt, with the time and randomness the decision may need.
    package struct Outcome: Sendable {
        /// The classified failure.
        package var error: APIError
        /// The current time, to turn a Retry-After date into a wait.
        package var now: Date
        /// A random value in `0..<1` for the jitter.
        package var unit: Double

        /// Creates an outcome.
        package init(error: APIError, now: Date, unit: Double) {
            self.error = error
            self.now = now
            self.unit = unit
        }
    }

    /// The settings.
    package let policy: RetryPolicy
    /// Whether the request may be sent twice: an idempotent method or an endpoint marked replayable.
    package let isReplayable: Bool
    /// Sends made so far (the one that just failed included).
    package private(set) var attempts = 1

    /// Starts the state for a request whose first attempt is under way.
    ///
    /// - Parameters:
    ///   - policy: The retry settings.
    ///   - isReplayable: `false` for POST/PATCH not marked replayable; they are never retried.
    package init(policy: RetryPolicy, isReplayable: Bool) {
        self.policy = policy
        self.isReplayable = isReplayable
    }

    /// Decides what to do after a failed attempt and, if it is a retry, counts the next attempt.
    ///
    /// - Parameter outcome: The failure, the time and a random unit.
    /// - Returns: `.retry(after:)` with the wait, or `.fail` with the error to throw.
    package mutating func next(after outcome: Outcome) -> RetryAction {
        let error = outcome.error
        guard isReplayable, policy.isRetryable(error), attempts < policy.maximumAttempts else {
            return .fail(error)
        }
        let delay: Duration
        if let retryAfter = error.retryAfter {
            delay = retryAfter.delay(relativeTo: outcome.now)
            // Sleeping through a long outage helps nobody; the caller hears about it now instead.
            guard delay <= policy.maximumRetryAfter else {
                var refused = error
                refused.underlying = "Retry-After \(retryAfter) exceeds the \(policy.maximumRetryAfter) limit"
                return .fail(refused)
            }
        } else {
            delay = policy.backoff(forRetry: attempts - 1, unit: outcome.unit)
        }
        attempts += 1
        return .retry(after: delay)
    }
}
