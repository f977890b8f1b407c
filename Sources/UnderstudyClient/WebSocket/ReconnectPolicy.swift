import Foundation

/// How a ``ReconnectingWebSocket`` keeps its connection: the heartbeat that notices a dead one, and when and how
/// often it comes back.
///
/// Backoff is exponential with full jitter, as ``RetryPolicy``'s; a refused upgrade's `Retry-After` is honoured up
/// to ``maximumRetryAfter``. Close codes that mean "do not come back" (1000 normal, 1002 and 1007 protocol errors,
/// 1003, 1008 policy, 1009 too big, 1010) end the socket for good; the others, a connection lost without a close
/// frame, a heartbeat's timeout and the transient upgrade statuses, reconnect.
public struct ReconnectPolicy: Sendable {
    /// Reconnections allowed in a row before giving up; nil: no limit. Default 10.
    public var maximumAttempts: Int?
    /// The backoff ceiling before the first reconnection; it doubles each time. Default 0.5 s.
    public var baseDelay: Duration
    /// The largest backoff ceiling. Default 30 s.
    public var maximumDelay: Duration
    /// The longest `Retry-After` waited for; a longer one gives up. Default 60 s.
    public var maximumRetryAfter: Duration
    /// How often a ping goes out on a quiet connection; nil: no heartbeat. Default 15 s.
    public var heartbeatInterval: Duration?
    /// How long a ping waits for its pong before the connection counts as dead. Default 10 s.
    public var heartbeatTimeout: Duration
    /// Close codes after which the socket reconnects. Default 1001, 1005, 1006, 1011, 1012, 1013, 1014.
    public var reconnectingCloseCodes: Set<Int>
    /// Upgrade statuses after which the socket reconnects. Default 408, 429, 500, 502, 503, 504.
    public var reconnectingStatuses: Set<Int>

    /// Creates a policy; every parameter has the documented default.
    public init(maximumAttempts: Int? = 10, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30),
                maximumRetryAfter: Duration = .seconds(60), heartbeatInterval: Duration? = .seconds(15),
                heartbeatTimeout: Duration = .seconds(10),
                reconnectingCloseCodes: Set<Int> = [1001, 1005, 1006, 1011, 1012, 1013, 1014],
                reconnectingStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]) {
        self.maximumAttempts = maximumAttempts.map { max(0, $0) }
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.heartbeatInterval = heartbeatInterval
        self.heartbeatTimeout = heartbeatTimeout
        self.reconnectingCloseCodes = reconnectingCloseCodes
        self.reconnectingStatuses = reconnectingStatuses
    }

    /// The defaults: 10 reconnections in a row, 0.5 s to 30 s backoff, a ping every 15 s answered within 10 s.
    public static let standard = ReconnectPolicy()

    /// What to do after `error`, the `failures`-th failure in a row (1 for the first): wait this long and come
    /// back, or stop (nil).
    ///
    /// - Parameters:
    ///   - error: Why the connection ended or could not open.
    ///   - failures: Failures in a row, this one included.
    ///   - unit: A random value in `0..<1` for the jitter.
    /// - Returns: The wait before the next attempt, or nil to give up.
    public func reconnectDelay(after error: APIError, failures: Int, unit: Double) -> Duration? {
        if let maximumAttempts, failures > maximumAttempts { return nil }
        switch error.kind {
        case .cancelled, .invalidURL, .unauthorized, .untrustedCertificate, .certificateExpired, .wrongHost, .pinMismatch:
            return nil
        default:
            break
        }
        if let code = error.closeCode, !reconnectingCloseCodes.contains(code) { return nil }
        if let status = error.status {
            guard reconnectingStatuses.contains(status) else { return nil }
            if let retryAfter = error.retryAfter {
                let wait = retryAfter.delay(relativeTo: Date())
                return wait <= maximumRetryAfter ? wait : nil
            }
        }
        let backoff = RetryPolicy(baseDelay: baseDelay, maximumDelay: maximumDelay)
        return backoff.backoff(forRetry: failures - 1, unit: unit)
    }
}
