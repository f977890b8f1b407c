/// A request URL split as written, without Foundation's `URL`, which would re-escape or refuse what an exporter
/// wrote (a space in a query, a `|`), and the replay must match the path and query the client really sent.
struct HARURL: Equatable {
    /// The scheme, lower-cased (`https`).
    var scheme: String
    /// `scheme://authority`.
    var origin: String
    /// The path as written; `/` when the URL has none.
    var path: String
    /// The query as written, without `?`; nil when the URL has no `?`.
    var query: String?

    /// Splits an absolute URL; nil when it has no `scheme:`. The fragment, which never reaches a server, is dropped.
    init?(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let colon = rest.firstIndex(of: ":"), colon > rest.startIndex,
              rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return nil
        }
        scheme = rest[..<colon].lowercased()
        rest = rest[rest.index(after: colon)...]
        var authority = Substring("")
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            authority = rest[..<end]
            rest = rest[end...]
        }
        origin = authority.isEmpty ? "\(scheme):" : "\(scheme)://\(authority)"
        if let question = rest.firstIndex(of: "?") {
            path = String(rest[..<question])
            query = String(rest[rest.index(after: question)...])
        } else {
            path = String(rest)
            query = nil
        }
        if path.isEmpty { path = "/" }
    }
}
