/// The control room's page, served by the server itself at `/__understudy/`: HTML, CSS and ES module script from
/// `Assets/`, embedded in the binary at build time (SwiftPM's `.embedInCode`, read as `PackageResources`, no resource
/// bundle), so a static release binary carries it and nothing is fetched from elsewhere.
///
/// The page: every control has a label and is reachable with the keyboard; the script fills in the rest. No inline
/// script or style: the page's Content-Security-Policy allows neither. The style sheet: light and dark (the system's
/// choice, or the page's toggle), and a large-type mode for a stage.
///
/// The page sits behind the admin gate (same origin, a known Host) but needs no admin token: with
/// `--admin-token`, it asks for the token and sends it with every admin request. Its headers keep other pages out:
/// no framing (a page steering the server must not be clickjacked), scripts and connections from its own origin
/// only.
enum ControlRoomAssets {
    static let feedPath = AdminPath.prefix + "/events"

    private struct Asset {
        let type: String
        let body: SharedBytes
    }

    private static let assets: [String: Asset] = [
        AdminPath.prefix + "/": Asset(type: "text/html; charset=utf-8", body: SharedBytes(PackageResources.control_room_html)),
        AdminPath.prefix + "/control-room.css": Asset(type: "text/css; charset=utf-8", body: SharedBytes(PackageResources.control_room_css)),
        AdminPath.prefix + "/control-room.js": Asset(type: "text/javascript; charset=utf-8", body: SharedBytes(script)),
    ]

    /// The headers every asset carries.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-cache"),
    ]

    /// What the page needs to know before it asks for anything: whether to ask for the admin token.
    static let configPath = AdminPath.prefix + "/control-room.json"

    /// The asset at the request's path (GET and HEAD; any other method is a 405), or nil when the path is not one.
    static func response(for request: HTTPRequest, tokenRequired: Bool) -> HTTPResponse? {
        let path = String(request.path)
        let config = path == configPath
            ? Asset(type: HTTPResponse.jsonContentType, body: SharedBytes(Array("{\"tokenRequired\":\(tokenRequired)}".utf8)))
            : nil
        guard let asset = config ?? assets[path] else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            return APIError(405, "Method \(request.method) is not allowed on \(request.path); use GET, HEAD",
                            headers: ["Allow": "GET, HEAD"]).response
        }
        var headers: HTTPHeaders = ["Content-Type": asset.type]
        for (name, value) in securityHeaders { headers.add(name, value) }
        return HTTPResponse(status: 200, headers: headers, body: .shared(asset.body))
    }

    static func isFeed(_ path: some StringProtocol) -> Bool {
        path == feedPath
    }

    /// The feed's head for GET and HEAD (HEAD ends there), after checking its parameters.
    static func feedHead(for request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            throw APIError(405, "Method \(request.method) is not allowed on \(request.path); use GET, HEAD",
                           headers: ["Allow": "GET, HEAD"])
        }
        _ = try FeedRequest.parse(request)
        return FeedRequest.head
    }
}
