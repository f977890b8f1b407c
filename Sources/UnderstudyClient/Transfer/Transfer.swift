/// A download or upload under way: its progress as an `AsyncSequence`, and its result.
///
/// ```swift
/// let transfer = client.download(Endpoint<EmptyResponse>(path: "big.bin"), to: destination)
/// Task { for await step in transfer.progress { print(step.fractionCompleted ?? 0) } }
/// let file = try await transfer.value()
/// ```
public struct Transfer<Value: Sendable>: Sendable {
    /// Progress updates, ending when the transfer does. Meant for one consumer.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Value, any Error>

    init(progress: AsyncStream<TransferProgress>, task: Task<Value, any Error>) {
        self.progress = progress
        self.task = task
    }

    /// Waits for the result; cancelling the waiting task cancels the transfer.
    ///
    /// - Returns: The transfer's value.
    /// - Throws: ``APIError``.
    public func value() async throws(APIError) -> Value {
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw APIError.classify(error)
        }
    }

    /// Cancels the transfer; ``value()`` then throws ``APIError/Kind/cancelled``.
    public func cancel() {
        task.cancel()
    }
}
