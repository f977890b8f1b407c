import UnderstudyClient

/// DummyJSON's login, profile and refresh, as a protocol so views and tests can swap in a fake.
public protocol AuthService: Sendable {
    /// Logs in; the live service also keeps the tokens in its `TokenStore`.
    func login(username: String, password: String, expiresInMins: Int?) async throws(APIError) -> LoginResponse
    /// The signed-in user; `APIError/Kind/unauthorized` without a valid token.
    func me() async throws(APIError) -> User
    /// A new token pair from the current refresh token; the live service stores it.
    func refresh(expiresInMins: Int?) async throws(APIError) -> TokenPair
}

/// ``AuthService`` over an `APIClient`, keeping tokens in a `TokenStore`.
public struct LiveAuthService: AuthService {
    /// The client requests go through.
    public let client: APIClient
    /// Where tokens are kept; the same store the client's `auth` should be.
    public let tokenStore: TokenStore

    /// Creates the service.
    public init(client: APIClient, tokenStore: TokenStore) {
        self.client = client
        self.tokenStore = tokenStore
    }

    /// Logs in and stores the tokens in ``tokenStore``.
    public func login(username: String, password: String, expiresInMins: Int? = nil) async throws(APIError) -> LoginResponse {
        let response = try await client.send(AuthEndpoints.login(username: username, password: password,
                                                                 expiresInMins: expiresInMins))
        await tokenStore.setTokens(response.tokens)
        return response
    }

    /// The signed-in user, sent with the bearer token.
    public func me() async throws(APIError) -> User {
        try await client.send(AuthEndpoints.me())
    }

    /// Renews the tokens from the stored refresh token and stores the new pair.
    public func refresh(expiresInMins: Int? = nil) async throws(APIError) -> TokenPair {
        guard let refreshToken = await tokenStore.tokens?.refreshToken else {
            throw APIError(.unauthorized, underlying: "no refresh token")
        }
        let pair = try await client.send(AuthEndpoints.refresh(refreshToken: refreshToken, expiresInMins: expiresInMins))
        await tokenStore.setTokens(pair)
        return pair
    }
}
