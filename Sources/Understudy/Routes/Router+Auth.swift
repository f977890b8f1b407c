import UnderstudyJSON

/// `/auth/…`: login, the current user, refresh, logout, and every resource mounted again behind a token.
extension Router {
    /// `/auth/…`: login, the current user, refresh and logout (with their aliases `/users/login` and `/users/me`),
    /// then every resource mounted again behind the token check.
    static var authRoutes: [APIRoute] {
        let login: RouteAction.Handler = { router, context throws(APIError) in try router.login(context.request) }
        let me: RouteAction.Handler = { router, context throws(APIError) in try router.me(context.request) }
        return [
            APIRoute("POST", "/auth/login", login),
            APIRoute("GET", "/auth/me", me),
            APIRoute("POST", "/auth/refresh") { router, context throws(APIError) in try router.refresh(context.request) },
            APIRoute("POST", "/auth/logout") { router, context throws(APIError) in
                _ = try router.authenticate(context.request)
                var response = HTTPResponse.message("Logged out successfully", status: 200)
                Cookies.clearTokens(secure: context.request.isSecure, in: &response.headers)
                return response
            },
            // DummyJSON mounts every resource again under /auth behind the token check.
            APIRoute("*", "/auth/{path...}", action: .mount),
            APIRoute("POST", "/users/login", login),
            APIRoute("GET", "/users/me", me),
        ]
    }

    func login(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let fields = try RequestBody.fields(of: request)
        guard let username = fields["username"], username.isTruthy, let password = fields["password"], password.isTruthy else {
            throw APIError(400, "Username and password required")
        }
        guard let name = username.stringValue else { throw APIError(400, "Username is not valid") }
        guard let user = catalog.users.user(named: name), password.stringValue == user.password else {
            throw APIError(400, "Invalid credentials")
        }
        let lifetime = try lifetimeMinutes(fields["expiresInMins"])
        let issuedAt = Int(now())
        var body = JSONObject([
            .init(key: "accessToken", value: .string(tokens.sign(claims: user.tokenClaims, issuedAt: issuedAt,
                                                                 lifetimeSeconds: lifetime.tokenSeconds))),
            .init(key: "refreshToken", value: .string(refreshToken(for: user, issuedAt: issuedAt))),
        ])
        body.entries.append(contentsOf: user.tokenClaims)
        var response = HTTPResponse.json(JSONWriter.encode(.object(body)))
        Cookies.setTokens(access: body["accessToken"]?.stringValue ?? "", refresh: body["refreshToken"]?.stringValue ?? "",
                          maxAgeSeconds: lifetime.cookieSeconds, now: now(), secure: request.isSecure,
                          in: &response.headers)
        return response
    }

    func me(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        // As bytes: the ETag middleware tags a body of bytes, while a shared body carries the tag its cache made.
        .json(try authenticate(request).encoded.bytes)
    }

    private func refresh(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let fields = try RequestBody.fields(of: request)
        guard let token = fields["refreshToken"]?.stringValue ?? request.cookie("refreshToken"), !token.isEmpty else {
            throw APIError(401, "Refresh token required")
        }
        let claims: JSONObject
        do {
            claims = try tokens.verify(token, now: Int(now()))
        } catch {
            throw APIError(403, "Invalid refresh token")
        }
        guard let user = self.user(for: claims) else { throw APIError(403, "Refresh token expired") }
        let lifetime = try lifetimeMinutes(fields["expiresInMins"])
        let issuedAt = Int(now())
        let access = tokens.sign(claims: user.tokenClaims, issuedAt: issuedAt, lifetimeSeconds: lifetime.tokenSeconds)
        let refresh = refreshToken(for: user, issuedAt: issuedAt)
        let body = JSONObject([.init(key: "accessToken", value: .string(access)),
                               .init(key: "refreshToken", value: .string(refresh))])
        var response = HTTPResponse.json(JSONWriter.encode(.object(body)))
        Cookies.setTokens(access: access, refresh: refresh, maxAgeSeconds: lifetime.cookieSeconds, now: now(),
                          secure: request.isSecure, in: &response.headers)
        return response
    }

    /// The user a request's token belongs to, from `Authorization` (with or without `Bearer `) or the
    /// `accessToken` cookie; failures carry DummyJSON's messages and clear the cookies.
    func authenticate(_ request: HTTPRequest) throws(APIError) -> UserDirectory.User {
        do {
            return try verifiedUser(request)
        } catch {
            var failure = error
            Cookies.clearTokens(secure: request.isSecure, in: &failure.headers)
            throw failure
        }
    }

    private func verifiedUser(_ request: HTTPRequest) throws(APIError) -> UserDirectory.User {
        var token: String
        if let header = request.headers["Authorization"], !header.isEmpty {
            token = header.hasPrefix("Bearer ") ? String(header.dropFirst("Bearer ".count)) : header
        } else if let cookie = request.cookie("accessToken"), !cookie.isEmpty {
            token = cookie
        } else {
            throw APIError(401, "Access Token is required")
        }
        token = token.trimmingJSWhitespace()
        let claims: JSONObject
        do {
            claims = try tokens.verify(token, now: Int(now()))
        } catch {
            // DummyJSON answers 500 for a bad signature or an undecodable token; these are the client's
            // mistakes, so Understudy answers 401 with the same words.
            switch error {
            case .malformed: throw APIError(401, "Invalid/Expired Token!")
            case .expired: throw APIError(401, "Token Expired!")
            case .badSignature: throw APIError(401, "invalid signature")
            case .wrongAlgorithm: throw APIError(401, "invalid algorithm")
            case .undecodable: throw APIError(401, "invalid token")
            }
        }
        guard let user = self.user(for: claims) else { throw APIError(400, "Invalid access token") }
        return user
    }

    private func user(for claims: JSONObject) -> UserDirectory.User? {
        guard let id = claims["id"]?.intValue, let user = catalog.users.user(id: id),
              claims["username"]?.stringValue == user.username else { return nil }
        return user
    }

    private func refreshToken(for user: UserDirectory.User, issuedAt: Int) -> String {
        tokens.sign(claims: user.tokenClaims, issuedAt: issuedAt, lifetimeSeconds: TokenService.maximumLifetimeMinutes * 60)
    }

    /// `expiresInMins`: default 60, valid 1…43200. DummyJSON answers 500 when it is out of range; Understudy 400.
    /// Its quirk is kept: 0 skips the check and gives a 30-day token with a cookie that expires at once.
    private func lifetimeMinutes(_ value: JSONValue?) throws(APIError) -> (tokenSeconds: Int, cookieSeconds: Int) {
        guard let value else {
            return (TokenService.defaultLifetimeMinutes * 60, TokenService.defaultLifetimeMinutes * 60)
        }
        // An empty string is not a number here (JavaScript's Number("") is 0, which would pass as the quirk).
        let minutes: Double = switch value {
        case .number(let number): number.double
        case .string(let text) where !text.trimmingJSWhitespace().isEmpty: JSNumber.number(text)
        default: .nan
        }
        if minutes == 0 { return (TokenService.maximumLifetimeMinutes * 60, 0) }
        guard minutes >= 1, minutes <= Double(TokenService.maximumLifetimeMinutes) else {
            throw APIError(400, "Maximum access token expire time can be \(TokenService.maximumLifetimeMinutes) minutes")
        }
        return (Int(minutes * 60), Int(minutes * 60))
    }
}
