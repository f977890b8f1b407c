/// Which requests a fault rule applies to: every field given must hold.
///
/// The one model of a rule's match, for the in-process server's rules (`FaultRule.Match`) and the remote
/// client's (`Rule.Match`), which are this type.
///
/// ```swift
/// RuleMatch(method: "GET", path: "/products/*", headers: ["X-Client": "ios-*"])
/// ```
public struct RuleMatch: Sendable, Hashable {
    /// The method, e.g. `GET` (any when nil).
    public var method: String?
    /// A glob over the path without the query: `*` matches any run of characters, `?` one.
    public var path: String?
    /// Headers that must be present with these values (names case-insensitive; values may be globs).
    public var headers: [String: String]
    /// Query parameters that must be present with these values (values may be globs).
    public var query: [String: String]

    /// A match on any of method, path glob, headers and query parameters (all given must hold).
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - path: A path glob.
    ///   - headers: Header name to value glob.
    ///   - query: Query parameter to value glob.
    public init(method: String? = nil, path: String? = nil, headers: [String: String] = [:], query: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.query = query
    }

    /// Whether a request matches: its method (upper case), its path without the query, and lookups of its
    /// headers (case-insensitive) and query parameters.
    package func matches(method requestMethod: String, path requestPath: String,
                         header: (String) -> String?, query parameter: (String) -> String?) -> Bool {
        if let method, method.uppercased() != requestMethod { return false }
        if let path, !Glob.matches(path, requestPath) { return false }
        for (name, pattern) in headers {
            guard let value = header(name), Glob.matches(pattern, value) else { return false }
        }
        for (name, pattern) in query {
            guard let value = parameter(name), Glob.matches(pattern, value) else { return false }
        }
        return true
    }
}
