import UnderstudyClient

/// DummyJSON's login, profile and refresh as a struct of closures: the lightweight alternative to
/// ``AuthService``.
///
/// Each member mirrors an ``AuthService`` requirement. ``live(_:tokenStore:)`` goes over an `APIClient`,
/// ``preview`` answers as ``PreviewData/user`` without the network, and ``failing`` throws from every closure.
public struct AuthClient: Sendable {
    /// Logs in with username, password and an optional token lifetime in minutes.
    public var login: @Sendable (_ username: String, _ password: String, _ expiresInMins: Int?) async throws(APIError) -> LoginResponse
    /// The signed-in user; `APIError/Kind/unauthorized` without a valid token.
    public var me: @Sendable () async throws(APIError) -> User
    /// A new token pair from the current refresh token, with an optional lifetime in minutes.
    public var refresh: @Sendable (_ expiresInMins: Int?) async throws(APIError) -> TokenPair

    /// Creates a client from its closures.
    public init(
        login: @escaping @Sendable (String, String, Int?) async throws(APIError) -> LoginResponse,
        me: @escaping @Sendable () async throws(APIError) -> User,
        refresh: @escaping @Sendable (Int?) async throws(APIError) -> TokenPair
    ) {
        self.login = login
        self.me = me
        self.refresh = refresh
    }

    /// A client whose every closure calls `service`.
    ///
    /// - Parameter service: Any ``AuthService``, e.g. a ``LiveAuthService``.
    public init(_ service: some AuthService) {
        self.init(
            login: { username, password, minutes throws(APIError) in
                try await service.login(username: username, password: password, expiresInMins: minutes)
            },
            me: { () throws(APIError) in try await service.me() },
            refresh: { minutes throws(APIError) in try await service.refresh(expiresInMins: minutes) }
        )
    }

    /// The client over DummyJSON's HTTP API, as ``LiveAuthService`` sends it.
    ///
    /// - Parameters:
    ///   - client: The client requests go through.
    ///   - tokenStore: Where tokens are kept; by default the client's `auth` when it is a `TokenStore`, else a
    ///     new store refreshing through DummyJSON.
    /// - Returns: The live client.
    public static func live(_ client: APIClient, tokenStore: TokenStore? = nil) -> AuthClient {
        let store = tokenStore ?? (client.configuration.auth as? TokenStore)
            ?? TokenStore(refresher: TokenStore.dummyJSONRefresher())
        return AuthClient(LiveAuthService(client: client, tokenStore: store))
    }

    /// Logs in only as ``PreviewData/user`` (`emilys` / `emilyspass`; other credentials are a 400, as on
    /// DummyJSON), answers ``PreviewData/user`` from `me` and placeholder tokens from `refresh`. No network.
    public static let preview = AuthClient(
        login: { username, password, _ throws(APIError) in
            guard username.lowercased() == PreviewData.user.username, password == PreviewData.user.password else {
                var error = APIError(.httpStatus, underlying: "AuthClient.preview knows only \(PreviewData.user.username)")
                error.status = 400
                error.serverMessage = "Invalid credentials"
                throw error
            }
            return PreviewData.login
        },
        me: { () throws(APIError) in PreviewData.user },
        refresh: { _ throws(APIError) in
            TokenPair(accessToken: PreviewData.login.accessToken, refreshToken: PreviewData.login.refreshToken)
        }
    )

    /// Every call throws `APIError/Kind/unimplemented` naming the closure, e.g. `AuthClient.me`.
    public static let failing = AuthClient(
        login: { _, _, _ throws(APIError) in throw unimplemented("login") },
        me: { () throws(APIError) in throw unimplemented("me") },
        refresh: { _ throws(APIError) in throw unimplemented("refresh") }
    )

    private static func unimplemented(_ name: String) -> APIError {
        APIError(.unimplemented, underlying: "AuthClient.\(name) is unimplemented (AuthClient.failing)")
    }
}
