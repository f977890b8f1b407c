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
    /// session delegate. The token is attached as for ``send(_:)``; middleware and retries do not apply.
    ///
    /// - Parameter endpoint: What to request; its `Response` type is not used.
    /// - Returns: The response head and the body stream.
    /// - Throws: ``APIError``: the status error (with its body) for a non-2xx reply, or the transport failure.
    public func stream(_ endpoint: some Endpoint) async throws(APIError) -> StreamedResponse {
        let request = try endpoint.makeRequest(baseURL: baseURL, encoder: configuration.encoder)
        return try await stream(request, authenticated: endpoint.requiresAuthentication)
    }

    /// Opens a prepared request as a byte stream; see ``stream(_:)-(Endpoint)``.
    ///
    /// - Parameters:
    ///   - request: The request, sent as it is apart from the token.
    ///   - authenticated: Whether to attach the bearer token.
    /// - Returns: The response head and the body stream.
    /// - Throws: ``APIError``.
    public func stream(_ request: URLRequest, authenticated: Bool = false) async throws(APIError) -> StreamedResponse {
        var request = request
        if authenticated, let credential = await configuration.auth?.currentCredential() {
            request = Self.authorize(request, with: credential)
        }
        return try await openStream(request, body: .none, onSent: nil)
    }

    /// Starts a task whose events go through the router, and waits for its head.
    func openStream(
        _ request: URLRequest,
        body: StreamBody,
        onSent: (@Sendable (Int64, Int64) -> Void)?
    ) async throws(APIError) -> StreamedResponse {
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
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
                    router.register(task, sink: StreamSink(head: head, body: continuation, onSent: onSent))
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            return StreamedResponse(response: response, bytes: ByteStream(bytes), task: task)
        } catch {
            throw APIError.classify(error).tagged(method: method, url: request.url, attempts: 1)
        }
    }
}
