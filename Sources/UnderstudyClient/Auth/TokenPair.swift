/// An access token and the refresh token that renews it.
public struct TokenPair: Sendable, Hashable, Codable {
    /// The bearer token sent as `Authorization: Bearer <accessToken>`.
    public var accessToken: String
    /// The token that obtains a new pair; nil when the server issued none.
    public var refreshToken: String?

    /// Creates a pair.
    public init(accessToken: String, refreshToken: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// The token a request was sent with, and which generation of tokens it belongs to.
///
/// The version lets the store tell a 401 for a request sent with an *older* token (retry with the current one,
/// no refresh) from a 401 for the current token (refresh).
public struct Credential: Sendable, Hashable {
    /// The access token.
    public var token: String
    /// Incremented every time the tokens change.
    public var version: Int

    /// Creates a credential.
    public init(token: String, version: Int) {
        self.token = token
        self.version = version
    }
}
