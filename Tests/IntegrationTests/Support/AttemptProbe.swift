import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking
import UnderstudyClient

/// The innermost middleware: records every attempt the client sends and every one that came back, so a test
/// can wait for "the request is on the wire" or "the reply is in" before cancelling.
final class AttemptProbe: Middleware {
    private let state = Locked<(sent: [URLRequest], finished: Int)>(([], 0))

    func intercept(_ request: URLRequest, next: MiddlewareNext) async throws -> (Data, HTTPURLResponse) {
        state.withLock { $0.sent.append(request) }
        defer { state.withLock { $0.finished += 1 } }
        return try await next(request)
    }

    /// The requests sent so far, in order.
    var sent: [URLRequest] { state.withLock { $0.sent } }
    /// How many attempts have returned (with a response or an error).
    var finished: Int { state.withLock { $0.finished } }
}

/// Holds requests matching `predicate` until `count` of them have arrived, then lets them all through, so the
/// test knows every one of them was sent before any reply could change the client's state.
final class GateMiddleware: Middleware {
    private let count: Int
    private let predicate: @Sendable (URLRequest) -> Bool
    private let state = Locked<(arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    init(count: Int, where predicate: @escaping @Sendable (URLRequest) -> Bool) {
        self.count = count
        self.predicate = predicate
    }

    func intercept(_ request: URLRequest, next: MiddlewareNext) async throws -> (Data, HTTPURLResponse) {
        if predicate(request) {
            await withCheckedContinuation { continuation in
                let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.arrived += 1
                    state.waiting.append(continuation)
                    guard state.arrived >= count else { return [] }
                    defer { state.waiting = [] }
                    return state.waiting
                }
                for waiter in released { waiter.resume() }
            }
        }
        return try await next(request)
    }
}
