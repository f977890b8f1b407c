import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response body as it arrives: an `AsyncSequence` of `Data` chunks that throws ``APIError``.
///
/// Stopping the iteration early, or cancelling the task iterating it, cancels the underlying `URLSessionTask`.
/// Chunks are buffered without bound while nobody reads, so read promptly.
public struct ByteStream: AsyncSequence, Sendable {
    /// A chunk of body bytes, in arrival order.
    public typealias Element = Data

    private let base: AsyncThrowingStream<Data, any Error>

    init(_ base: AsyncThrowingStream<Data, any Error>) {
        self.base = base
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Reads chunks; every error it throws is an ``APIError``.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Data, any Error>.Iterator

        /// The next chunk, or nil at the end of the body.
        public mutating func next() async throws -> Data? {
            do {
                if let chunk = try await base.next() { return chunk }
                // AsyncThrowingStream ends quietly when the consuming task is cancelled; say so instead.
                if Task.isCancelled { throw APIError(.cancelled, underlying: "CancellationError") }
                return nil
            } catch {
                throw APIError.classify(error)
            }
        }
    }
}
