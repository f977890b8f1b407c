import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Sends an endpoint's request and decodes the reply, retrying and refreshing the token as configured.
    ///
    /// The order per attempt: attach the token (if the endpoint requires authentication and there is one), run
    /// the middleware and the session, then classify. A 401 triggers at most one refresh-and-retry; transient
    /// failures are retried by `RetryState` for idempotent or replayable endpoints; cancellation is checked
    /// before each attempt and during each wait.
    ///
    /// - Parameter endpoint: What to send.
    /// - Returns: The decoded response.
    /// - Throws: ``APIError``, carrying the method, URL and attempt count.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws(APIError) -> Response {
        try await sendWithResponse(endpoint).value
    }

    /// Like ``send(_:)``, also returning the response and raw body.
    ///
    /// - Parameter endpoint: What to send.
    /// - Returns: The decoded value with its response.
    /// - Throws: ``APIError``.
    public func sendWithResponse<Response>(
        _ endpoint: Endpoint<Response>
    ) async throws(APIError) -> HTTPResponseValue<Response> {
        let request = try endpoint.makeRequest(baseURL: baseURL, encoder: configuration.encoder)
        let reply = try await exchange(request, endpoint: endpoint)
        do {
            let value = try endpoint.decode(reply.data, decoder: configuration.decoder)
            // Stored only once it decoded: a body the caller could not use is not worth revalidating.
            if !reply.isRevalidated, let lookup = reply.lookup {
                configuration.etagCache?.store(reply.data, response: reply.response, for: lookup)
            }
            return HTTPResponseValue(value: value, response: reply.response, data: reply.data,
                                     attempts: reply.attempts, isRevalidated: reply.isRevalidated)
        } catch {
            throw error.tagged(method: endpoint.method, url: request.url, attempts: reply.attempts)
        }
    }

    /// A successful exchange: the body (the stored one after a 304), the reply, and the cache's view of it.
    struct Reply {
        var data: Data
        var response: HTTPURLResponse
        var attempts: Int
        var isRevalidated = false
        var lookup: ETagCache.Lookup?
    }

    /// The retry and refresh loop around the middleware chain.
    func exchange<Response>(_ base: URLRequest, endpoint: Endpoint<Response>) async throws(APIError) -> Reply {
        let method = endpoint.method
        let chain = configuration.middleware.chained(around: transport)
        var retry = RetryState(policy: configuration.retryPolicy, isReplayable: endpoint.mayRetry)
        var refreshed = false
        var attempts = 0
        while true {
            if Task.isCancelled {
                throw APIError(.cancelled, underlying: "CancellationError").tagged(method: method, url: base.url, attempts: attempts)
            }
            let credential = endpoint.requiresAuthentication ? await configuration.auth?.currentCredential() : nil
            var request = Self.authorize(base, with: credential)
            // After authorizing, so the entry is the one fetched with this token.
            let lookup = configuration.etagCache?.prepare(&request)
            attempts += 1
            let failure: APIError
            do {
                let (data, response) = try await chain(request)
                if response.statusCode == 304, let stored = lookup?.entry {
                    return Reply(data: stored.body, response: response, attempts: attempts, isRevalidated: true,
                                 lookup: lookup)
                }
                guard let error = APIError.classify(response, body: data) else {
                    return Reply(data: data, response: response, attempts: attempts, lookup: lookup)
                }
                failure = error
            } catch {
                failure = router.classify(error, host: request.url?.host)
            }
            let tagged = failure.tagged(method: method, url: base.url, attempts: attempts)
            if failure.kind == .cancelled { throw tagged }

            if failure.kind == .unauthorized, endpoint.requiresAuthentication, let auth = configuration.auth {
                // One refresh per request: a second 401 after it is final, so a bad refresh can never loop.
                guard !refreshed else { throw tagged }
                refreshed = true
                do {
                    _ = try await auth.refreshedCredential(after: credential, using: self)
                    continue
                } catch {
                    // A refresh that did not get through (cancelled, offline, 5xx) is reported as what it was;
                    // only a rejected one leaves the request unauthorized.
                    guard error.kind == .unauthorized else {
                        throw error.tagged(method: method, url: base.url, attempts: attempts)
                    }
                    var final = tagged
                    final.underlying = error.underlying ?? error.description
                    throw final
                }
            }

            let outcome = RetryState.Outcome(error: tagged, now: configuration.now(), unit: configuration.random.next())
            switch retry.next(after: outcome) {
            case .fail(let error):
                throw error
            case .retry(let delay):
                do {
                    try await configuration.sleeper.sleep(for: delay)
                } catch {
                    throw APIError(.cancelled, underlying: "cancelled while waiting to retry")
                        .tagged(method: method, url: base.url, attempts: attempts)
                }
            }
        }
    }

    /// The innermost layer: one send through the session.
    private var transport: MiddlewareNext {
        { [session] request in
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw APIError(.invalidResponse, underlying: "not an HTTP response: \(type(of: response))")
            }
            return (data, http)
        }
    }

    /// Adds `Authorization: Bearer …` when there is a non-empty token, and nothing otherwise.
    static func authorize(_ request: URLRequest, with credential: Credential?) -> URLRequest {
        guard let token = credential?.token, !token.isEmpty else { return request }
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }
}
