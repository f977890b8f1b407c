/// The `accessToken` / `refreshToken` cookies DummyJSON sets on login and refresh and clears on failure.
///
/// DummyJSON marks them `Secure; SameSite=None`, and so does Understudy over TLS. Over plain http they carry
/// neither: over http://127.0.0.1 Apple's cookie store withholds a `Secure` cookie (and browsers refuse
/// `SameSite=None` without `Secure`), so `Secure` belongs only on a reply sent over TLS. `SameSite=Lax` is what
/// browsers assume anyway.
enum Cookies {
    static func setTokens(access: String, refresh: String, maxAgeSeconds: Int, now: Double, secure: Bool,
                          in headers: inout HTTPHeaders) {
        let expires = Timestamp.httpDate(now + Double(maxAgeSeconds))
        for (name, value) in [("accessToken", access), ("refreshToken", refresh)] {
            headers.add("Set-Cookie", "\(name)=\(value); Max-Age=\(maxAgeSeconds); Path=/; Expires=\(expires); \(attributes(secure: secure))")
        }
    }

    static func clearTokens(secure: Bool, in headers: inout HTTPHeaders) {
        for name in ["accessToken", "refreshToken"] {
            headers.add("Set-Cookie", "\(name)=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; \(attributes(secure: secure))")
        }
    }

    /// DummyJSON's attributes over TLS; over http, the ones a client keeps there.
    private static func attributes(secure: Bool) -> String {
        secure ? "HttpOnly; Secure; SameSite=None" : "HttpOnly; SameSite=Lax"
    }
}
