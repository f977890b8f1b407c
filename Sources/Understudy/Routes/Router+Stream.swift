extension Router {
    /// For a request of the table's stream row (`/products/stream` or an alias of it), whether it came through
    /// `/auth` (which checks its token); nil for every other request. Only GET and HEAD ask for it: any other method
    /// is routed like `/products/{id}` with the id `stream`, as `/products/categories` is (DummyJSON's `/:id`
    /// routes), so `Allow` lists the same methods on every `/products/<word>`.
    func streamRoute(for incoming: HTTPRequest) -> Bool? {
        guard incoming.method == "GET" || incoming.method == "HEAD" else { return nil }
        var path = incoming.path
        var cursor = PathCursor(path)
        let mounted = cursor.next().map { RoutePattern.word($0, equals: "auth") } ?? false
        if mounted { path = cursor.remainder }
        let (rows, collection) = candidates(for: path)
        guard collection == nil else { return nil }
        var captures = RouteCaptures()
        for row in rows {
            guard case .stream = Router.table[row].action else { continue }
            if Router.table[row].pattern.matchesAfterFirstWord(path, captures: &captures) { return mounted }
        }
        return nil
    }

    /// The stream plan of a request `streamRoute` found, `mounted` when it came through `/auth`. `seed` is the one
    /// its session's payloads derive from, so parallel tests with seeds of their own get their own payloads.
    func streamPlan(for incoming: HTTPRequest, mounted: Bool, fault: FaultSpec?, seed: UInt64) -> Result<StreamPlan, APIError> {
        do throws(APIError) {
            if mounted { _ = try authenticate(incoming) }
            _ = try ListQuery.parse(incoming.query)
            guard catalog.productCount > 0 else {
                throw APIError(404, "No products to stream: the catalogue is empty")
            }
            return .success(try StreamPlan.parse(incoming, faults: fault?.stream ?? FaultSpec.StreamFaults(), seed: seed))
        } catch {
            return .failure(error)
        }
    }
}
