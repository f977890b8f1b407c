/// Who may reach the admin API (`/__understudy/…`) at all: no web page but Understudy's own, and no host name but
/// the server's own, whatever the admin token says.
///
/// A browser attaches `Origin` to every cross-origin request and to every POST, so a page on another origin
/// (another site, or another port on localhost) is refused however it asks: a form post, `fetch`, or a preflight.
/// `Sec-Fetch-Site: cross-site` or `same-site` is refused too (another port on localhost is same-site). Clients
/// that send no `Origin` (curl, URLSession, tests) are not browsers steered by a page, and go on as before.
///
/// The `Host` check stops DNS rebinding, where a page's own name is made to resolve to 127.0.0.1: its requests
/// are then same-origin to the browser, but carry the page's name in `Host`. Allowed: the bound address,
/// `localhost` and loopback addresses (any of them optionally with the bound port), and the names given with
/// `--allow-host`. A request without `Host` (HTTP/1.0) is allowed: browsers always send one.
///
/// Every refusal is a 403 decided from the head alone, before the admin API parses the body or changes anything.
struct AdminGate: Sendable {
    /// The address the server is bound to (`--host`).
    let boundHost: String
    /// The ports it listens on by scheme (the real ones when 0 was asked for): `http`, `https` or both (`--tls-port`).
    let ports: [String: Int]
    /// Further names `Host` may carry (`--allow-host`), normalized.
    let allowedHosts: Set<String>

    init(boundHost: String, ports: [String: Int], allowedHosts: [String] = []) {
        self.boundHost = HostAuthority.normalized(boundHost)
        self.ports = ports
        self.allowedHosts = Set(allowedHosts.map(HostAuthority.normalized))
    }

    /// A gate for a server serving plain http on `boundPort`.
    init(boundHost: String, boundPort: Int, allowedHosts: [String] = []) {
        self.init(boundHost: boundHost, ports: ["http": boundPort], allowedHosts: allowedHosts)
    }

    /// Whether `path` belongs to the admin API.
    static func isAdmin(_ path: some StringProtocol) -> Bool {
        path.hasPrefix(AdminPath.prefix)
    }

    /// Whether a reply to this request may carry CORS headers: every public route does (DummyJSON answers any
    /// origin, with credentials), the admin API never.
    static func allowsCORS(for request: HTTPRequest) -> Bool {
        !isAdmin(request.path)
    }

    /// nil when the request may go on (it is not an admin request, or it passes), else the 403 to answer.
    func refusal(for request: HTTPRequest) -> APIError? {
        refusal(method: request.method, path: request.path, headers: request.headers.decoded,
                scheme: request.isSecure ? "https" : "http")
    }

    /// nil when the request may go on (it is not an admin request, or it passes), else the 403 to answer; `scheme`
    /// is the one the request came by, its own origin's.
    func refusal(method: String, path: some StringProtocol, headers: HTTPHeaders, scheme: String = "http") -> APIError? {
        guard AdminGate.isAdmin(path) else { return nil }
        var host: HostAuthority?
        if let hostHeader = headers["Host"] {
            guard let parsed = HostAuthority(hostHeader), allows(parsed) else {
                return APIError(403, "Understudy's admin API refuses Host '\(hostHeader)': it answers only to \(boundHost), "
                                    + "localhost and loopback addresses, or to names given with --allow-host "
                                    + "(a guard against DNS rebinding)")
            }
            host = parsed
        }
        let origin = headers["Origin"]
        if method == "OPTIONS", origin != nil || headers["Access-Control-Request-Method"] != nil {
            return APIError(403, "Understudy's admin API is same-origin only and answers no CORS preflight"
                                + (origin.map { " (from origin '\($0)')" } ?? ""))
        }
        if let origin, !isSameOrigin(origin, host: host, scheme: scheme) {
            return APIError(403, "Understudy's admin API is same-origin only: refused a request from origin '\(origin)'")
        }
        if let site = headers["Sec-Fetch-Site"]?.lowercased(), site == "cross-site" || site == "same-site" {
            return APIError(403, "Understudy's admin API is same-origin only: refused a \(site) request "
                                + "(Sec-Fetch-Site) from \(origin.map { "origin '\($0)'" } ?? "another origin")")
        }
        return nil
    }

    /// Whether `Host` may name this server: by a loopback name, the bound address or an allowed name, with no
    /// port or a bound one.
    func allows(_ host: HostAuthority) -> Bool {
        guard host.port.map({ ports.values.contains($0) }) ?? true else { return false }
        return host.isLoopback || host.name == boundHost || allowedHosts.contains(host.name)
    }

    /// Whether `origin` is the server's own: the scheme the request came by (http, or https over TLS), the host the
    /// request's `Host` names (or, without one, any host `Host` could name), and the port bound for that scheme.
    /// `null` (a sandboxed page, a file, some redirects) never is.
    func isSameOrigin(_ origin: String, host: HostAuthority?, scheme requestScheme: String = "http") -> Bool {
        guard let (scheme, authority) = HostAuthority.origin(origin), scheme == requestScheme,
              let port = ports[scheme], (authority.port ?? (scheme == "https" ? 443 : 80)) == port else { return false }
        if let host { return authority.name == host.name }
        return allows(authority)
    }
}
