/// A request as routes see it: decoded from evhttp once, then plain values.
struct HTTPRequest: Sendable {
    /// The method in upper case, e.g. `GET`.
    var method: String
    /// The request target as sent, e.g. `/products?limit=5`.
    var target: String
    /// The path part of the target, still percent-encoded.
    var path: Substring
    /// The raw query (after `?`), or nil.
    var rawQuery: Substring?
    /// The decoded query parameters.
    var query: QueryParameters
    var headers: HTTPHeaders
    var body: [UInt8]
    /// Set when the request reached a resource through `/auth/…`, after its token was checked: its reply must
    /// never be replayed without that check.
    var passedTokenCheck = false

    /// A request from its parts; `target` is split into path and query.
    init(method: String, target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = Substring(target.utf8[..<mark])
            let raw = Substring(target.utf8[target.utf8.index(after: mark)...])
            rawQuery = raw
            query = QueryParameters(raw)
        } else {
            path = target[...]
            rawQuery = nil
            query = QueryParameters()
        }
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
