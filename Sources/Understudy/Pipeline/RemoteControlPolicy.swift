/// Who may inject faults and use the admin API.
///
/// On a loopback address anyone on the machine may (the default: tests and demos). Bound anywhere else, both are
/// refused unless an admin token is set, and then a request must carry it (`X-Understudy-Token: <token>`, or
/// `Authorization: Bearer <token>` on the admin API), compared in constant time.
package struct RemoteControlPolicy: Sendable {
    let host: String
    let token: String?
    /// Whether the server listens on loopback only; `--host LOCALHOST` is `localhost` (names are case-insensitive).
    let isLoopback: Bool

    init(host: String, token: String?) {
        self.host = host
        self.token = token
        isLoopback = RemoteControlPolicy.isLoopback(host: host)
    }

    /// Whether `host` is a loopback name or address; the command line warns about any other.
    package static func isLoopback(host: String) -> Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    static let tokenHeader = "X-Understudy-Token"

    private static func digest(_ text: String) -> [UInt8] {
        HMACSHA256.mac(key: Array("understudy-admin-token".utf8), message: Array(text.utf8))
    }

    /// Whether a request presenting `token` (its `X-Understudy-Token`, if any) may ask for a fault: what
    /// `refusal(for:admin: false)` decides, from the head alone.
    func allowsFaults(presenting presented: String?) -> Bool {
        guard let token else { return isLoopback }
        guard let presented else { return false }
        return HMACSHA256.constantTimeEquals(RemoteControlPolicy.digest(presented), RemoteControlPolicy.digest(token))
    }

    /// nil when the request may steer the server, else the refusal.
    func refusal(for request: HTTPRequest, admin: Bool) -> APIError? {
        guard let token else {
            guard isLoopback else {
                return APIError(403, "Fault injection and the admin API are off because Understudy listens on \(host); "
                                    + "restart it with --admin-token to allow them")
            }
            return nil
        }
        var presented = request.headers[RemoteControlPolicy.tokenHeader]
        if presented == nil, admin, let authorization = request.headers["Authorization"], authorization.hasPrefix("Bearer ") {
            presented = String(authorization.dropFirst("Bearer ".count))
        }
        // Both sides are hashed first, so the comparison takes the same time whatever the token's length.
        guard let presented, HMACSHA256.constantTimeEquals(RemoteControlPolicy.digest(presented),
                                                           RemoteControlPolicy.digest(token)) else {
            return APIError(401, "This Understudy needs its admin token: send it in \(RemoteControlPolicy.tokenHeader)")
        }
        return nil
    }
}
