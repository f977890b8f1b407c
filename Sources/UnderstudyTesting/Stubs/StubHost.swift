import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking
import UnderstudyClient

/// A scripted fake host for unit tests: a unique base URL whose requests ``StubURLProtocol`` answers from a queue.
///
/// Each instance gets its own host name, so tests running in parallel never see each other's replies.
///
/// ```swift
/// let host = StubHost([.status(503), .json(#"{"id":1}"#)])
/// let client = APIClient(baseURL: host.baseURL, sessionConfiguration: host.sessionConfiguration())
/// ```
public final class StubHost: Sendable {
    private struct State {
        var queue: [StubResponse]
        var fallback: (@Sendable (RecordedRequest) -> StubResponse)?
        var requests: [RecordedRequest] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// The base URL to give the client, `http://<unique>.stub.invalid`.
    public let baseURL: URL
    let name: String
    private let state: Locked<State>

    /// Creates a host that answers with `responses` in order, then with `fallback` (404 when nil).
    ///
    /// - Parameters:
    ///   - responses: Replies for the first requests, in order.
    ///   - fallback: Replies for every request once the queue is empty.
    public init(_ responses: [StubResponse] = [],
                fallback: (@Sendable (RecordedRequest) -> StubResponse)? = nil) {
        name = "h" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") + ".stub.invalid"
        var components = URLComponents()
        components.scheme = "http"
        components.host = name
        components.path = "/"
        // The name is hex and dots, so this always succeeds; the fallback would fail every request as invalidURL.
        baseURL = components.url ?? URL(fileURLWithPath: "/")
        state = Locked(State(queue: responses, fallback: fallback))
        StubURLProtocol.register(self)
    }

    deinit {
        StubURLProtocol.unregister(name)
    }

    /// Adds replies to the end of the queue.
    public func enqueue(_ responses: StubResponse...) {
        state.withLock { $0.queue.append(contentsOf: responses) }
    }

    /// The requests received so far, in order.
    public var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// A session configuration whose first protocol class is ``StubURLProtocol`` (whole-second timeouts).
    public func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = APIClient.Configuration.defaultSessionConfiguration()
        configuration.protocolClasses = [StubURLProtocol.self] + (configuration.protocolClasses ?? [])
        configuration.timeoutIntervalForRequest = 5
        return configuration
    }

    /// Suspends until at least `count` requests have arrived.
    public func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.requests.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Records a request and picks its reply.
    func reply(to request: RecordedRequest) -> StubResponse {
        let (response, ready) = state.withLock { state in
            state.requests.append(request)
            let response: StubResponse = if !state.queue.isEmpty {
                state.queue.removeFirst()
            } else if let fallback = state.fallback {
                fallback(request)
            } else {
                .message("no stub for \(request.method) \(request.url?.path ?? "")", status: 404)
            }
            let count = state.requests.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (response, ready)
        }
        for continuation in ready { continuation.resume() }
        return response
    }
}
