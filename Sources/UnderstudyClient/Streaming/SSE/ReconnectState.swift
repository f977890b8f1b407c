/// When an ``EventSource`` reconnects, as a value: each ended connection goes in, an action comes out.
///
/// The wait is "equal jitter": uniform in `[ceiling/2, ceiling]` with `ceiling = min(max, base × 2^(failures-1))`,
/// but never less than the base, which is the server's `retry:` once it has sent one. WHATWG HTML §9.2 makes the
/// reconnection time the delay to wait before reconnecting ("optionally, wait some more"), so the first
/// reconnection after a working connection waits exactly `retry:`, and repeated failures back off beyond it.
/// `failures` counts consecutive connections that delivered no event, and resets when one does.
package struct ReconnectState: Sendable {
    /// How a connection ended.
    package enum Ending: Sendable {
        /// The body ended cleanly.
        case endOfStream
        /// 204 No Content: the server wants the client to stop.
        case noContent
        /// The connection failed, or the server answered with an error status.
        case failed(APIError)
    }

    /// What to do next.
    package enum Action: Sendable, Equatable {
        /// Wait, then reconnect.
        case reconnect(after: Duration)
        /// End the sequence normally.
        case stop
        /// End the sequence with this error.
        case fail(APIError.Kind)
    }

    /// The base delay: the initial setting, replaced by each valid `retry:` field.
    package private(set) var baseDelay: Duration
    /// The largest backoff ceiling.
    package let maximumDelay: Duration
    /// Connections allowed in a row without an event before giving up; nil never gives up.
    package let maximumFailures: Int?
    /// Consecutive connections without an event.
    package private(set) var failures = 0

    /// Creates the state.
    package init(baseDelay: Duration, maximumDelay: Duration, maximumFailures: Int?) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumFailures = maximumFailures
    }

    /// The server sent `retry:`.
    package mutating func retryChanged(to delay: Duration) {
        baseDelay = delay
    }

    /// Decides what follows a connection's end.
    ///
    /// - Parameters:
    ///   - ending: How it ended.
    ///   - deliveredEvents: Whether it dispatched at least one event (which resets the backoff).
    ///   - unit: A random value in `0..<1`.
    /// - Returns: The action.
    package mutating func connectionEnded(_ ending: Ending, deliveredEvents: Bool, unit: Double) -> Action {
        if deliveredEvents { failures = 0 }
        switch ending {
        case .noContent:
            return .stop
        case .failed(let error) where !Self.isRecoverable(error):
            return error.kind == .cancelled ? .stop : .fail(error.kind)
        case .failed, .endOfStream:
            failures += 1
            if let maximumFailures, failures > maximumFailures { return .fail(.connectionLost) }
            let ceiling = min(maximumDelay.seconds, baseDelay.seconds * pow2(failures - 1))
            let clamped = min(max(unit, 0), 1)
            // The server's retry: is a floor, even above maximumDelay: the server asked for at least that long.
            return .reconnect(after: .seconds(max(baseDelay.seconds, ceiling / 2 + ceiling / 2 * clamped)))
        }
    }

    /// Transport failures and 5xx/408/429 are worth reconnecting; other statuses, bad URLs and a wrong content
    /// type are not.
    static func isRecoverable(_ error: APIError) -> Bool {
        switch error.kind {
        case .serverError, .rateLimited, .noConnection, .timedOut, .connectionLost, .transportFailed: true
        case .httpStatus: error.status == 408
        default: false
        }
    }

    private func pow2(_ exponent: Int) -> Double {
        Double(1 << min(max(exponent, 0), 30))
    }
}
