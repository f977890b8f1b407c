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
        /// A refresh is under way for the tokens of `version`.
        case refreshing(waiters: [Int], version: Int)
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
        case .refreshing(let waiters, let started):
            phase = .refreshing(waiters: waiters + [waiter], version: started)
            return .wait
        case .failed(let failedVersion) where failedVersion == version:
            return .fail("the token refresh already failed")
        case .idle, .failed:
            guard canRefresh, let tokens, tokens.refreshToken != nil else { return .fail("no refresh token") }
            // The caller that starts the refresh waits for it like everyone else.
            phase = .refreshing(waiters: [waiter], version: version)
            return .startRefresh(tokens)
        }
    }

    /// A waiter gave up (its task was cancelled); returns whether it was still waiting.
    mutating func cancel(waiter: Int) -> Bool {
        guard case .refreshing(let waiters, let started) = phase, waiters.contains(waiter) else { return false }
        phase = .refreshing(waiters: waiters.filter { $0 != waiter }, version: started)
        return true
    }

    /// The refresh produced a new pair. If the tokens were replaced meanwhile (a login or logout), the pair is
    /// stale and dropped, and the waiters go on with whatever is current.
    mutating func refreshSucceeded(_ tokens: TokenPair) -> FinishAction {
        let (waiters, started) = refreshInProgress
        phase = .idle
        if started == version {
            self.tokens = tokens
            version += 1
        }
        // `credential` is nil after a logout, or if the server sent an empty access token: nobody can retry.
        guard let credential else { return .fail(waiters) }
        return .resume(waiters, credential)
    }

    /// The refresh failed; every waiter fails with it. A `sticky` failure (the server rejected the refresh
    /// token) also fails later 401s for these tokens at once; otherwise the next 401 may refresh again. If the
    /// tokens were replaced meanwhile, the failure was about the old ones: waiters go on with the new ones.
    mutating func refreshFailed(sticky: Bool = true) -> FinishAction {
        let (waiters, started) = refreshInProgress
        guard started == version else {
            phase = .idle
            guard let credential else { return .fail(waiters) }
            return .resume(waiters, credential)
        }
        phase = sticky ? .failed(version: version) : .idle
        return .fail(waiters)
    }

    /// Whether the refresh that just ended was still for the current tokens (its result then counts).
    var refreshIsCurrent: Bool {
        refreshInProgress.started == version
    }

    private var refreshInProgress: (waiters: [Int], started: Int) {
        if case .refreshing(let waiters, let started) = phase { return (waiters, started) }
        return ([], version)
    }
}
