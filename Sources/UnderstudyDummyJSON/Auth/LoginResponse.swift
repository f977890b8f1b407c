import UnderstudyClient

/// What `POST /auth/login` answers with: the tokens and a short profile.
public struct LoginResponse: Codable, Sendable, Hashable {
    /// The bearer token (HS256 JWT), valid for `expiresInMins`.
    public var accessToken: String
    /// The refresh token, valid for 30 days.
    public var refreshToken: String
    /// The user's id.
    public var id: Int
    /// The username.
    public var username: String
    /// The email address.
    public var email: String
    /// The first name.
    public var firstName: String
    /// The last name.
    public var lastName: String
    /// The gender.
    public var gender: String
    /// The avatar URL.
    public var image: String

    /// The two tokens as a pair.
    public var tokens: TokenPair {
        TokenPair(accessToken: accessToken, refreshToken: refreshToken)
    }
}
