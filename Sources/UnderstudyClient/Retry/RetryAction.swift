/// What a ``RetryState`` tells its owner to do after a failed attempt.
package enum RetryAction: Sendable, Equatable {
    /// Sleep for the duration, then send again.
    case retry(after: Duration)
    /// Give up and throw this error.
    case fail(APIError)

    /// Equal when both retry after the same wait, or both fail with the same kind and status.
    package static func == (lhs: RetryAction, rhs: RetryAction) -> Bool {
        switch (lhs, rhs) {
        case (.retry(let a), .retry(let b)): a == b
        case (.fail(let a), .fail(let b)): a.kind == b.kind && a.status == b.status
        default: false
        }
    }
}
