/// The token-refresh logic as a value: events go in, actions for the owning actor come out.
///
/// It holds the tokens, their version and whether a refresh is under way; ``TokenStore`` holds the waiting
/// continuations and performs the actions (calling the refresher, resuming waiters) outside any transition.
struct RefreshState: Sendable {
    /// What a 401 leads to.
    enum UnauthorizedAction: Equatable, Sendable {
        /// The request carried an older token: retry with this one, no refresh.
        case retry(Credential)
        /// Nobody is refreshing: the owner must start a refresh with this pair, and the caller waits for it.
        case startRefresh(TokenPair)
        /// A refresh is under way: wait for it.
        case wait
        /// No refresh can help.
        case fail(String)
    }

    /// What the end of a refresh leads to.
    enum FinishAction: Equatable, Sendable {
        /// Resume these waiters with the new credential.
        case resume([Int], Credential)
        /// Fail these waiters.
        case fail([Int])
    }

    private enum Phase: Equatable, Sendable {
        case idle
        case refreshing(waiters: [Int])
        /// The refresh for this version failed; later 401s for it fail at once until the tokens change.
        case failed(version: Int)
    }

    private(set) var tokens: TokenPair?
    private(set) var version = 0
    private var phase = Phase.idle

    init(tokens: TokenPair?) {
        self.tokens = tokens
    }

    /// The credential to send now.
    var credential: Credential? {
        guard let token = tokens?.accessToken, !token.isEmpty else { return nil }
        return Credential(token: token, version: version)
    }

    var isRefreshing: Bool {
        if case .refreshing = phase { return true }
        return false
    }

    /// New tokens from outside (login, logout): a new version, and any sticky failure forgotten.
    mutating func replaceTokens(_ tokens: TokenPair?) {
        self.tokens = tokens
        version += 1
        if case .failed = phase { phase = .idle }
    }

    /// A request carrying `rejected` got 401. `waiter` identifies the caller should it have to wait.
    mutating func unauthorized(rejected: Credential?, waiter: Int, canRefresh: Bool) -> UnauthorizedAction {
        guard let current = credential else { return .fail("no access token") }
        if rejected?.version != current.version {
            return .retry(current)
        }
        switch phase {
        case .refreshing(let waiters):
            phase = .refreshing(waiters: waiters + [waiter])
            return .wait
        case .failed(let failedVersion) where failedVersion == version:
            return .fail("the token refresh already failed")
        case .idle, .failed:
            guard canRefresh, let tokens, tokens.refreshToken != nil else { return .fail("no refresh token") }
            // The caller that starts the refresh waits for it like everyone else.
            phase = .refreshing(waiters: [waiter])
            return .startRefresh(tokens)
        }
    }

    /// A waiter gave up (its task was cancelled); returns whether it was still waiting.
    mutating func cancel(waiter: Int) -> Bool {
        guard case .refreshing(let waiters) = phase, waiters.contains(waiter) else { return false }
        phase = .refreshing(waiters: waiters.filter { $0 != waiter })
        return true
    }

    /// The refresh produced a new pair.
    mutating func refreshSucceeded(_ tokens: TokenPair) -> FinishAction {
        let waiters = currentWaiters
        self.tokens = tokens
        version += 1
        phase = .idle
        // `credential` is non-nil unless the server sent an empty access token; then nobody can retry.
        guard let credential else { return .fail(waiters) }
        return .resume(waiters, credential)
    }

    /// The refresh failed; every waiter fails with it. A `sticky` failure (the server rejected the refresh
    /// token) also fails later 401s for these tokens at once; otherwise the next 401 may refresh again.
    mutating func refreshFailed(sticky: Bool = true) -> FinishAction {
        let waiters = currentWaiters
        phase = sticky ? .failed(version: version) : .idle
        return .fail(waiters)
    }

    private var currentWaiters: [Int] {
        if case .refreshing(let waiters) = phase { return waiters }
        return []
    }
}
