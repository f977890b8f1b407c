/// Holds the tokens in memory and refreshes them single-flight.
///
/// However many requests get 401 at once, exactly one refresh runs and the rest wait for it; a request sent with
/// an older token is retried with the current one without refreshing; a failed refresh fails every waiter, and
/// further 401s for the same token fail at once until new tokens arrive (``setTokens(_:)``), so nothing loops.
///
/// ```swift
/// let store = TokenStore(refresher: TokenStore.dummyJSONRefresher())
/// let client = APIClient(baseURL: url, auth: store)
/// try await LiveAuthService(client: client, tokenStore: store).login(username: "emilys", password: "emilyspass")
/// ```
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

    /// How many callers are waiting on a refresh in flight (the one running it not included).
    var waiterCount: Int { waiters.count }

    /// Replaces the tokens (after a login) or clears them (nil, after a logout), and saves them.
    ///
    /// - Parameter tokens: The new tokens.
    public func setTokens(_ tokens: TokenPair?) async {
        loaded = true
        state.replaceTokens(tokens)
        try? await storage.save(tokens)
    }

    public func currentCredential() async -> Credential? {
        await loadIfNeeded()
        return state.credential
    }

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
            return try await refresh(tokens, using: client)
        }
    }

    private func refresh(_ tokens: TokenPair, using client: APIClient) async throws(APIError) -> Credential {
        refreshCount += 1
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
            let action = state.refreshSucceeded(pair)
            lastFailure = nil
            try? await storage.save(pair)
            return try perform(action, cause: nil)
        case .failure(let error):
            lastFailure = error.description
            return try perform(state.refreshFailed(), cause: error)
        }
    }

    private func perform(_ action: RefreshState.FinishAction, cause: APIError?) throws(APIError) -> Credential {
        switch action {
        case .resume(let ids, let credential):
            for id in ids { waiters.removeValue(forKey: id)?.resume(returning: credential) }
            return credential
        case .fail(let ids):
            var error = APIError(.unauthorized, underlying: "token refresh failed")
            if let cause { error.underlying = "token refresh failed: \(cause.description)" }
            for id in ids { waiters.removeValue(forKey: id)?.resume(throwing: error) }
            throw error
        }
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
