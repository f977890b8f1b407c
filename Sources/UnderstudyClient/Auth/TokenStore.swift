/// Holds the tokens in memory and refreshes them single-flight.
///
/// However many requests get 401 at once, exactly one refresh runs and the rest wait for it; a request sent with
/// an older token is retried with the current one without refreshing; a failed refresh fails every waiter. When the
/// server rejected the refresh token, further 401s for the same token fail at once until new tokens arrive
/// (``setTokens(_:)``), so nothing loops; when the refresh did not get through (offline, timeout, 5xx), waiters get
/// that failure instead of `.unauthorized` and the next 401 may try again. The refresh runs on a task of the
/// store's own, so cancelling whichever request started it affects only that request.
///
/// ```swift
/// let store = TokenStore(refresher: { tokens, client in
///     try await client.send(Endpoint<TokenPair>(path: "auth/refresh", method: .post,
///                                               body: .json(["refreshToken": tokens.refreshToken]), isReplayable: true))
/// })
/// let client = APIClient(baseURL: url, auth: store)
/// ```
///
/// `UnderstudyDummyJSON` supplies DummyJSON's refresher (`TokenStore.dummyJSONRefresher()`) and a login service
/// that fills the store.
public actor TokenStore: AuthProvider {
    /// Obtains a new pair from the current one, typically by sending the API's refresh request with `client`.
    public typealias Refresher = @Sendable (_ tokens: TokenPair, _ client: APIClient) async throws -> TokenPair

    private let storage: any TokenStorage
    private let refresher: Refresher?
    private var state = RefreshState(tokens: nil)
    private var loaded = false
    private var nextWaiter = 0
    private var waiters: [Int: CheckedContinuation<Credential, any Error>] = [:]
    private var lastFailure: String?

    /// How many refreshes have been started; a diagnostic that tests use to check single flight.
    public private(set) var refreshCount = 0

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - storage: Where tokens persist; memory only by default. See ``TokenStorage`` for the Keychain.
    ///   - refresher: How to renew the tokens; nil means a 401 is final.
    public init(storage: any TokenStorage = InMemoryTokenStorage(), refresher: Refresher? = nil) {
        self.storage = storage
        self.refresher = refresher
    }

    /// The tokens held now.
    public var tokens: TokenPair? {
        get async {
            await loadIfNeeded()
            return state.tokens
        }
    }

    /// How many callers are waiting on a refresh in flight, the one that started it included.
    var waiterCount: Int { waiters.count }

    /// Replaces the tokens (after a login) or clears them (nil, after a logout), and saves them.
    ///
    /// - Parameter tokens: The new tokens.
    public func setTokens(_ tokens: TokenPair?) async {
        loaded = true
        state.replaceTokens(tokens)
        try? await storage.save(tokens)
    }

    /// The access token to send now, loading saved tokens on first use; nil when there is none.
    public func currentCredential() async -> Credential? {
        await loadIfNeeded()
        return state.credential
    }

    /// A credential newer than `rejected`: the current one if it already is, else one from a single-flight refresh.
    public func refreshedCredential(after rejected: Credential?, using client: APIClient) async throws(APIError) -> Credential {
        await loadIfNeeded()
        let waiter = nextWaiter
        nextWaiter += 1
        switch state.unauthorized(rejected: rejected, waiter: waiter, canRefresh: refresher != nil) {
        case .retry(let credential):
            return credential
        case .fail(let reason):
            throw APIError(.unauthorized, underlying: lastFailure.map { "\(reason): \($0)" } ?? reason)
        case .wait:
            return try await wait(as: waiter)
        case .startRefresh(let tokens):
            // The refresh runs in a task of the store's own, not the caller's: cancelling the request that
            // happened to start it must not fail (or cancel) the refresh every other request is waiting on.
            refreshCount += 1
            Task { await self.refresh(tokens, using: client) }
            return try await wait(as: waiter)
        }
    }

    private func refresh(_ tokens: TokenPair, using client: APIClient) async {
        let result: Result<TokenPair, APIError>
        do {
            guard let refresher else { throw APIError(.unauthorized, underlying: "no refresher") }
            result = .success(try await refresher(tokens, client))
        } catch {
            result = .failure(APIError.classify(error))
        }
        // The actor may have run other calls while the refresher was suspended; the transition sees them all.
        switch result {
        case .success(let pair):
            let current = state.refreshIsCurrent
            let action = state.refreshSucceeded(pair)
            perform(action, cause: nil)
            // A pair for tokens replaced meanwhile (a login or logout during the refresh) is not kept.
            if current {
                lastFailure = nil
                try? await storage.save(pair)
            }
        case .failure(let error):
            let rejected = Self.isRejection(error)
            if rejected { lastFailure = error.description }
            perform(state.refreshFailed(sticky: rejected), cause: error)
        }
    }

    /// Whether the server turned the refresh token down, as opposed to the refresh not getting through: only a
    /// rejection makes the failure stick, so a timeout or a 503 on the refresh can be tried again later.
    static func isRejection(_ error: APIError) -> Bool {
        switch error.kind {
        case .unauthorized: true
        case .httpStatus: error.status.map { [400, 401, 403].contains($0) } ?? false
        default: false
        }
    }

    private func perform(_ action: RefreshState.FinishAction, cause: APIError?) {
        switch action {
        case .resume(let ids, let credential):
            for id in ids { waiters.removeValue(forKey: id)?.resume(returning: credential) }
        case .fail(let ids):
            let error = Self.waiterError(cause: cause)
            for id in ids { waiters.removeValue(forKey: id)?.resume(throwing: error) }
        }
    }

    /// What waiters see when the refresh fails: `.unauthorized` when the server rejected the refresh token, and
    /// the refresh's own failure (no connection, timed out, server error…) when it did not get through, so an app
    /// does not sign its user out over a dropped connection.
    static func waiterError(cause: APIError?) -> APIError {
        guard let cause else { return APIError(.unauthorized, underlying: "token refresh failed") }
        guard !isRejection(cause) else {
            return APIError(.unauthorized, underlying: "token refresh failed: \(cause.description)")
        }
        // Described as the waiting request's failure: its own method, URL and attempts are tagged on later.
        var error = cause
        error.underlying = "token refresh failed: \(cause.description)"
        error.method = nil
        error.url = nil
        error.attempts = 0
        return error
    }

    private func wait(as waiter: Int) async throws(APIError) -> Credential {
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    waiters[waiter] = continuation
                }
            } onCancel: {
                Task { await self.cancel(waiter: waiter) }
            }
        } catch {
            throw APIError.classify(error)
        }
    }

    private func cancel(waiter: Int) {
        if state.cancel(waiter: waiter) {
            waiters.removeValue(forKey: waiter)?.resume(throwing: CancellationError())
        }
    }

    private func loadIfNeeded() async {
        guard !loaded else { return }
        loaded = true
        if let stored = try? await storage.load(), state.tokens == nil {
            state.replaceTokens(stored)
        }
    }
}
