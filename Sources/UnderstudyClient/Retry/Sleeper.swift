/// How the client waits between attempts; tests inject one that returns at once.
package struct Sleeper: Sendable {
    private let body: @Sendable (Duration) async throws -> Void

    /// Creates a sleeper from a function that waits for a duration and throws if cancelled.
    package init(_ body: @escaping @Sendable (Duration) async throws -> Void) {
        self.body = body
    }

    /// Waits, throwing `CancellationError` if the task is cancelled meanwhile.
    ///
    /// - Parameter duration: How long to wait.
    package func sleep(for duration: Duration) async throws {
        try await body(duration)
    }

    /// `Task.sleep(for:)` on the continuous clock.
    package static let continuous = Sleeper { duration in
        try await Task.sleep(for: duration)
    }

    /// Returns at once, still honouring cancellation; for tests.
    package static let immediate = Sleeper { _ in
        try Task.checkCancellation()
    }
}
