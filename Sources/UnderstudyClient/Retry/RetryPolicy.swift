import Foundation

/// When and how long to wait before sending a failed request again.
///
/// Bounded attempts, exponential backoff with full jitter and a cap, and the server's `Retry-After` honoured up
/// to a clamp. The decisions themselves are made by `RetryState`; this type only holds the settings.
public struct RetryPolicy: Sendable {
    /// Total sends allowed for transient failures, the first included; 1 disables retrying. Default 3.
    ///
    /// The one resend after a token refresh is not counted here: it is a different failure with its own bound
    /// (one per request), so a 401 followed by 503s can make `maximumAttempts + 1` sends in all.
    public var maximumAttempts: Int
    /// The backoff ceiling before the first retry; it doubles per retry. Default 0.5 s.
    public var baseDelay: Duration
    /// The largest backoff ceiling. Default 30 s.
    public var maximumDelay: Duration
    /// The longest `Retry-After` the client will wait; a longer one fails the request instead. Default 60 s.
    public var maximumRetryAfter: Duration
    /// Statuses worth another try. Default 408, 429, 500, 502, 503, 504.
    public var retryableStatuses: Set<Int>
    /// Transport failures worth another try. Default: lost connection, timeout, no connection.
    public var retryableKinds: Set<APIError.Kind>

    /// Creates a policy; every parameter has the documented default.
    public init(
        maximumAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(30),
        maximumRetryAfter: Duration = .seconds(60),
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableKinds: Set<APIError.Kind> = [.connectionLost, .timedOut, .noConnection]
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableStatuses = retryableStatuses
        self.retryableKinds = retryableKinds
    }

    /// The default policy: 3 attempts, 0.5 s base, 30 s cap, Retry-After up to 60 s.
    public static let standard = RetryPolicy()

    /// A policy that never retries.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The backoff ceiling before retry number `retry` (0 for the first retry): `min(cap, base × 2^retry)`.
    ///
    /// - Parameter retry: How many retries have already happened.
    /// - Returns: The upper bound of the jittered wait.
    public func backoffCeiling(forRetry retry: Int) -> Duration {
        let exponent = min(max(retry, 0), 62)
        let base = baseDelay.seconds
        let ceiling = min(maximumDelay.seconds, base * pow(2, Double(exponent)))
        return .seconds(ceiling)
    }

    /// A "full jitter" wait: uniform in `[0, ceiling]` (AWS Architecture Blog, "Exponential Backoff and Jitter").
    ///
    /// - Parameters:
    ///   - retry: How many retries have already happened.
    ///   - unit: A random value in `0..<1`.
    /// - Returns: The wait before the next send.
    public func backoff(forRetry retry: Int, unit: Double) -> Duration {
        let clamped = min(max(unit, 0), 1)
        return .seconds(backoffCeiling(forRetry: retry).seconds * clamped)
    }

    /// Whether an error of this shape may be retried at all, ignoring the attempt budget and the method.
    ///
    /// - Parameter error: The classified failure.
    /// - Returns: `true` for the retryable statuses and transport kinds; never for cancellation or decoding.
    public func isRetryable(_ error: APIError) -> Bool {
        switch error.kind {
        case .cancelled, .decodingFailed, .encodingFailed, .invalidURL, .unauthorized:
            return false
        default:
            if let status = error.status { return retryableStatuses.contains(status) }
            return retryableKinds.contains(error.kind)
        }
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
