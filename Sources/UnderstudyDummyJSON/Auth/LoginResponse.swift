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

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(
        accessToken: String,
        refreshToken: String,
        id: Int,
        username: String,
        email: String,
        firstName: String,
        lastName: String,
        gender: String,
        image: String
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.id = id
        self.username = username
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.gender = gender
        self.image = image
    }

    /// The two tokens as a pair.
    public var tokens: TokenPair {
        TokenPair(accessToken: accessToken, refreshToken: refreshToken)
    }
}
