extension Router {
    /// Whether `incoming` asks for `/products/stream` (or an alias of it). Only GET and HEAD do: any other method is
    /// routed like `/products/{id}` with the id `stream`, as `/products/categories` is (DummyJSON's `/:id` routes),
    /// so `Allow` lists the same methods on every `/products/<word>`.
    func isStreamRequest(_ incoming: HTTPRequest) -> Bool {
        guard incoming.method == "GET" || incoming.method == "HEAD" else { return false }
        var path = incoming.path
        if path.hasPrefix("/auth/") { path = path.dropFirst("/auth".count) }
        return path == "/products/stream" || path == "/product/stream"
    }

    /// The stream plan when `incoming` asks for `/products/stream`; nil for every other route. `seed` is the one
    /// its session's payloads derive from, so parallel tests with seeds of their own get their own payloads.
    func streamPlan(for incoming: HTTPRequest, fault: FaultSpec?, seed: UInt64) -> Result<StreamPlan, APIError>? {
        guard isStreamRequest(incoming) else { return nil }
        let path = incoming.path.hasPrefix("/auth/") ? incoming.path.dropFirst("/auth".count) : incoming.path
        do throws(APIError) {
            if path != incoming.path { _ = try authenticate(incoming) }
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
