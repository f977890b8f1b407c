import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// What a streamed task uploads, if anything.
    enum StreamBody {
        case none
        case data(Data)
        case file(URL)
    }

    /// Opens an endpoint's response as a byte stream, returning once a 2xx head has arrived.
    ///
    /// Works on Linux, where `URLSession.bytes(for:)` does not exist: the bytes come through the client's
    /// session delegate. The token is attached as for ``send(_:)``, and a 401 head refreshes it once and tries
    /// again; middleware (which wraps whole buffered exchanges) and retries do not apply.
    ///
    /// - Parameter endpoint: What to request; its `Response` type is not used.
    /// - Returns: The response head and the body stream.
    /// - Throws: ``APIError``: the status error (with its body) for a non-2xx reply, or the transport failure.
    public func stream<Response>(_ endpoint: Endpoint<Response>) async throws(APIError) -> StreamedResponse {
        let request = try endpoint.makeRequest(baseURL: baseURL, encoder: configuration.encoder)
        return try await stream(request, authenticated: endpoint.requiresAuthentication)
    }

    /// Opens a prepared request as a byte stream; see ``stream(_:)``.
    ///
    /// - Parameters:
    ///   - request: The request, sent as it is apart from the token.
    ///   - authenticated: Whether to attach the bearer token.
    /// - Returns: The response head and the body stream.
    /// - Throws: ``APIError``.
    public func stream(_ request: URLRequest, authenticated: Bool = false) async throws(APIError) -> StreamedResponse {
        try await stream(request, authenticated: authenticated, onReceive: nil)
    }

    /// Opens a stream, refreshing the token once if the head is a 401; `onReceive` runs as each chunk arrives.
    func stream(_ request: URLRequest, authenticated: Bool,
                onReceive: (@Sendable () -> Void)?) async throws(APIError) -> StreamedResponse {
        let auth = authenticated ? configuration.auth : nil
        let credential = await auth?.currentCredential()
        do {
            return try await openStream(Self.authorize(request, with: credential), body: .none, onSent: nil,
                                        onReceive: onReceive)
        } catch where error.kind == .unauthorized {
            // As for send(_:): one refresh, one more try, and a second 401 is final.
            guard let auth else { throw error }
            let renewed: Credential
            do {
                renewed = try await auth.refreshedCredential(after: credential, using: self)
            } catch {
                throw error.kind == .unauthorized ? error : error.tagged(method: nil, url: request.url, attempts: 1)
            }
            return try await openStream(Self.authorize(request, with: renewed), body: .none, onSent: nil,
                                        onReceive: onReceive)
        }
    }

    /// Starts a task whose events go through the router, and waits for its head.
    func openStream(
        _ request: URLRequest,
        body: StreamBody,
        onSent: (@Sendable (Int64, Int64) -> Void)?,
        onReceive: (@Sendable () -> Void)? = nil
    ) async throws(APIError) -> StreamedResponse {
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        // A task cancelled before it starts would have its failure delivered before its sink is registered.
        if Task.isCancelled {
            throw APIError(.cancelled, underlying: "CancellationError").tagged(method: method, url: request.url, attempts: 0)
        }
        let (bytes, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let task: URLSessionTask = switch body {
        case .none: session.dataTask(with: request)
        case .data(let data): session.uploadTask(with: request, from: data)
        case .file(let url): session.uploadTask(with: request, fromFile: url)
        }
        continuation.onTermination = { _ in task.cancel() }
        do {
            let response = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { head in
                    router.register(task, sink: StreamSink(head: head, body: continuation, onSent: onSent,
                                                          onReceive: onReceive))
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            return StreamedResponse(response: response, bytes: ByteStream(bytes), task: task)
        } catch {
            throw router.classify(error, host: request.url?.host).tagged(method: method, url: request.url, attempts: 1)
        }
    }
}
