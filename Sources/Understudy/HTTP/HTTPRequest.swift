/// A request, as the transport read it from evhttp once: what the pipeline decides on, routes read and the
/// journal keeps.
///
/// The fields the fast path needs (the fault and session headers, whether `Origin` or `If-None-Match` came, whether
/// it is for the admin API) are found while the request is read, so a cached reply is chosen without decoding
/// anything else; the headers stay one raw block (`RawHeaders`), searched when a route asks for one.
///
/// Its fixed parts sit in one immutable box, so a request is one allocation, and passing it into the plan, the
/// draft and the journal copies two references rather than a dozen fields.
struct HTTPRequest: Sendable {
    /// What does not change once read: shared by every copy of the request.
    private final class Parts: Sendable {
        let method: String
        let target: String
        let rawQuery: Substring?
        let headers: RawHeaders
        let body: [UInt8]
        let faultHeader: String?
        let sessionHeader: String?
        let hasOriginOrCondition: Bool
        let isAdmin: Bool
        let startedAt: Double
        let arrivedAt: Double
        let isSecure: Bool

        init(method: String, target: String, rawQuery: Substring?, headers: RawHeaders,
             body: [UInt8], faultHeader: String?, sessionHeader: String?, hasOriginOrCondition: Bool, isAdmin: Bool,
             startedAt: Double, arrivedAt: Double, isSecure: Bool) {
            self.method = method
            self.target = target
            self.rawQuery = rawQuery
            self.headers = headers
            self.body = body
            self.faultHeader = faultHeader
            self.sessionHeader = sessionHeader
            self.hasOriginOrCondition = hasOriginOrCondition
            self.isAdmin = isAdmin
            self.startedAt = startedAt
            self.arrivedAt = arrivedAt
            self.isSecure = isSecure
        }
    }

    private let parts: Parts
    /// The path part of the target, still percent-encoded (a route under `/auth` sees the rest of it).
    var path: Substring
    /// Set when the request reached a resource through `/auth/…`, after its token was checked: its reply must
    /// never be replayed without that check.
    var passedTokenCheck = false
    /// The query, once decoded (see `query`).
    private var decodedQuery: QueryParameters?

    /// The method in upper case, e.g. `GET`.
    var method: String { parts.method }
    /// The request target as sent, e.g. `/products?limit=5`.
    var target: String { parts.target }
    /// The raw query (after `?`), or nil when the target has no `?`.
    var rawQuery: Substring? { parts.rawQuery }
    /// The decoded query parameters. A request the transport read is decoded only once the pipeline goes past
    /// its fast path (`decodingQuery()`): a canned reply needs none of it, and decoding cost a request with a
    /// query ~2k instructions. Until then it is decoded on each read.
    var query: QueryParameters {
        decodedQuery ?? rawQuery.map(QueryParameters.init) ?? QueryParameters()
    }
    var headers: RawHeaders { parts.headers }
    var body: [UInt8] { parts.body }
    /// The first `X-Understudy-Fault` value, if any.
    var faultHeader: String? { parts.faultHeader }
    /// The first `X-Understudy-Session` value, if any (empty when sent empty).
    var sessionHeader: String? { parts.sessionHeader }
    /// Whether an `Origin` or an `If-None-Match` came: either changes the reply's headers or status.
    var hasOriginOrCondition: Bool { parts.hasOriginOrCondition }
    /// Whether the target is under `/__understudy` (the admin API and the control room).
    var isAdmin: Bool { parts.isAdmin }
    /// Monotonic milliseconds when its first byte arrived (or the loop took it).
    var startedAt: Double { parts.startedAt }
    /// Wall-clock seconds when it arrived.
    var arrivedAt: Double { parts.arrivedAt }
    /// Whether it came over TLS (`https`): login's cookies are `Secure` then, and the admin API's own origin is
    /// `https://`.
    var isSecure: Bool { parts.isSecure }

    /// A request as read; `queryMark`, when known, is the UTF-8 offset of the target's `?` (-1: none). With
    /// `decodesQuery` false, the query is decoded when `decodingQuery()` asks (or on each read before).
    init(method: String, target: String, headers: RawHeaders, body: [UInt8] = [], faultHeader: String?,
         sessionHeader: String?, hasOriginOrCondition: Bool, startedAt: Double, arrivedAt: Double,
         queryMark: Int? = nil, isSecure: Bool = false, decodesQuery: Bool = true) {
        let mark = queryMark.map { $0 < 0 ? nil : target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
            ?? target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let rawQuery: Substring?
        if let mark {
            path = Substring(target.utf8[..<mark])
            rawQuery = Substring(target.utf8[target.utf8.index(after: mark)...])
        } else {
            path = target[...]
            rawQuery = nil
        }
        decodedQuery = decodesQuery ? rawQuery.map(QueryParameters.init) ?? QueryParameters() : nil
        parts = Parts(method: method, target: target, rawQuery: rawQuery, headers: headers, body: body,
                      faultHeader: faultHeader, sessionHeader: sessionHeader, hasOriginOrCondition: hasOriginOrCondition, isAdmin: target.hasPrefix(AdminPath.prefix),
                      startedAt: startedAt, arrivedAt: arrivedAt, isSecure: isSecure)
    }

    /// A request from its parts, as tests and internal callers build one: the fast path's headers are found in
    /// `headers`.
    init(method: String, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [], startedAt: Double = 0,
         arrivedAt: Double = 0, isSecure: Bool = false) {
        self.init(method: method, target: target, headers: RawHeaders(headers), body: body,
                  faultHeader: headers[FaultHeaders.fault], sessionHeader: headers[FaultHeaders.session],
                  hasOriginOrCondition: headers["Origin"] != nil || headers["If-None-Match"] != nil,
                  startedAt: startedAt, arrivedAt: arrivedAt, isSecure: isSecure)
    }

    /// This request with its query decoded once, for the routes and rules that read it, often more than once.
    func decodingQuery() -> HTTPRequest {
        guard decodedQuery == nil else { return self }
        var request = self
        request.decodedQuery = rawQuery.map(QueryParameters.init) ?? QueryParameters()
        return request
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
