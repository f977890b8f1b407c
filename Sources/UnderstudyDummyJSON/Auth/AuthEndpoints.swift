import UnderstudyClient

/// DummyJSON's auth endpoints, as request values.
public enum AuthEndpoints {
    struct Login: Encodable, Sendable {
        let username: String
        let password: String
        let expiresInMins: Int?
    }

    struct Refresh: Encodable, Sendable {
        let refreshToken: String?
        let expiresInMins: Int?
    }

    /// `POST /auth/login`. Wrong credentials are a 400 (`APIError/Kind/httpStatus`), not a 401.
    public static func login(username: String, password: String, expiresInMins: Int? = nil) -> Endpoint<LoginResponse> {
        Endpoint(path: "auth/login", method: .post,
                   body: .json(Login(username: username, password: password, expiresInMins: expiresInMins)))
    }

    /// `GET /auth/me`, with the bearer token.
    public static func me() -> Endpoint<User> {
        Endpoint(path: "auth/me", requiresAuthentication: true)
    }

    /// `POST /auth/refresh`. Marked replayable: repeating it only issues another pair.
    public static func refresh(refreshToken: String?, expiresInMins: Int? = nil) -> Endpoint<TokenPair> {
        Endpoint(path: "auth/refresh", method: .post,
                   body: .json(Refresh(refreshToken: refreshToken, expiresInMins: expiresInMins)),
                   isReplayable: true)
    }
}
