/// The `accessToken` / `refreshToken` cookies DummyJSON sets on login and refresh and clears on failure.
enum Cookies {
    static func setTokens(access: String, refresh: String, maxAgeSeconds: Int, now: Double, in headers: inout HTTPHeaders) {
        let expires = Timestamp.httpDate(now + Double(maxAgeSeconds))
        for (name, value) in [("accessToken", access), ("refreshToken", refresh)] {
            headers.add("Set-Cookie", "\(name)=\(value); Max-Age=\(maxAgeSeconds); Path=/; Expires=\(expires); HttpOnly; Secure; SameSite=None")
        }
    }

    static func clearTokens(in headers: inout HTTPHeaders) {
        for name in ["accessToken", "refreshToken"] {
            headers.add("Set-Cookie", "\(name)=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=None")
        }
    }
}
