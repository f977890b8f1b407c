/// What a matched admin route's handler reads: the request and the path's parameters.
struct AdminRouteContext {
    let request: HTTPRequest
    let captures: RouteCaptures

    /// The route's `{id}`, percent-decoded.
    var id: String { captures.first.map(QueryParameters.decodePath) ?? "" }
}
