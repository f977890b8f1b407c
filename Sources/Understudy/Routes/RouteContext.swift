/// What a matched route's handler reads: the request, its validated query, the path's parameters, your own
/// collection when the route is one of theirs, and the seed random picks draw from.
struct RouteContext {
    /// The request as the route sees it (a mounted one without its `/auth` prefix).
    let request: HTTPRequest
    let query: ListQuery
    let captures: RouteCaptures
    /// The collection a `/{collection}…` route serves.
    let collection: RecordCollection?
    /// The seed of the request's session, or the server's.
    let seed: UInt64

    /// The route's first `{name}` parameter, percent-decoded.
    var parameter: String { captures.first.map(QueryParameters.decodePath) ?? "" }

    /// Its second `{name}` parameter, percent-decoded.
    var secondParameter: String { captures.second.map(QueryParameters.decodePath) ?? "" }

    /// A `{name...}` parameter: the remaining segments, each percent-decoded, joined with `/`.
    var rest: String {
        guard let rest = captures.rest else { return "" }
        var cursor = PathCursor(rest)
        var words: [String] = []
        while let word = cursor.next() { words.append(QueryParameters.decodePath(word)) }
        return words.joined(separator: "/")
    }
}
