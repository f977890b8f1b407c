/// A request, as the transport read it from evhttp once: what the pipeline decides on, routes read and the
/// journal keeps.
///
/// The fields the fast path needs (the fault and session headers, whether `Origin` or `If-None-Match` came, whether
/// it is for the admin API) are found while the request is read, so a cached reply is chosen without decoding
/// anything else; the headers stay one raw block (`RawHeaders`), searched when a route asks for one.
struct HTTPRequest: Sendable {
    /// The method in upper case, e.g. `GET`.
    let method: String
    /// The request target as sent, e.g. `/products?limit=5`.
    let target: String
    /// The path part of the target, still percent-encoded.
    var path: Substring
    /// The raw query (after `?`), or nil when the target has no `?`.
    let rawQuery: Substring?
    /// The decoded query parameters.
    let query: QueryParameters
    let headers: RawHeaders
    let body: [UInt8]
    /// The first `X-Understudy-Fault` value, if any.
    let faultHeader: String?
    /// The first `X-Understudy-Session` value, if any (empty when sent empty).
    let sessionHeader: String?
    /// Whether an `Origin` or an `If-None-Match` came: either changes the reply's headers or status.
    let hasOriginOrCondition: Bool
    /// Whether the target is under `/__understudy` (the admin API and the control room).
    let isAdmin: Bool
    /// Monotonic milliseconds when its first byte arrived (or the loop took it).
    let startedAt: Double
    /// Wall-clock seconds when it arrived.
    let arrivedAt: Double
    /// Set when the request reached a resource through `/auth/…`, after its token was checked: its reply must
    /// never be replayed without that check.
    var passedTokenCheck = false

    /// A request as read; `queryMark`, when known, is the UTF-8 offset of the target's `?` (-1: none).
    init(method: String, target: String, headers: RawHeaders, body: [UInt8] = [], faultHeader: String?,
         sessionHeader: String?, hasOriginOrCondition: Bool, startedAt: Double, arrivedAt: Double,
         queryMark: Int? = nil) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.faultHeader = faultHeader
        self.sessionHeader = sessionHeader
        self.hasOriginOrCondition = hasOriginOrCondition
        self.startedAt = startedAt
        self.arrivedAt = arrivedAt
        isAdmin = target.hasPrefix(AdminRoutes.prefix)
        let mark = queryMark.map { $0 < 0 ? nil : target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
            ?? target.utf8.firstIndex(of: UInt8(ascii: "?"))
        if let mark {
            path = Substring(target.utf8[..<mark])
            let raw = Substring(target.utf8[target.utf8.index(after: mark)...])
            rawQuery = raw
            query = raw.isEmpty ? QueryParameters() : QueryParameters(raw)
        } else {
            path = target[...]
            rawQuery = nil
            query = QueryParameters()
        }
    }

    /// A request from its parts, as tests and internal callers build one: the fast path's headers are found in
    /// `headers`.
    init(method: String, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [], startedAt: Double = 0,
         arrivedAt: Double = 0) {
        self.init(method: method, target: target, headers: RawHeaders(headers), body: body,
                  faultHeader: headers[FaultHeaders.fault], sessionHeader: headers[FaultHeaders.session],
                  hasOriginOrCondition: headers["Origin"] != nil || headers["If-None-Match"] != nil,
                  startedAt: startedAt, arrivedAt: arrivedAt)
    }

    /// The session the request names: its first session header, none when that is empty.
    var session: String? {
        sessionHeader.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the request came with a body evhttp does not read (it reads none with HEAD or TRACE): its bytes
    /// would be parsed as the next request on the connection (request smuggling), so they are dropped and the
    /// connection closes after the reply.
    var leavesBodyUnread: Bool {
        guard method == "HEAD" || method == "TRACE" else { return false }
        let declared = headers["Content-Length"].flatMap { Int($0) } ?? 0
        return declared != 0 || headers["Transfer-Encoding"] != nil
    }

    /// The value of the cookie `name` from the `Cookie` header.
    func cookie(_ name: String) -> String? {
        guard let header = headers["Cookie"] else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop(while: { $0 == " " })
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            return QueryParameters.decode(trimmed[trimmed.index(after: equals)...])
        }
        return nil
    }
}
