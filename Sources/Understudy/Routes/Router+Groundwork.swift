import UnderstudyLocking

/// The indexes a read needs before its route can answer without holding the event loop up: a collection's search
/// text (`/products/search?q=…`) and the order of a sorted-by field (`?sortBy=…`), built the first time one is
/// needed. At 100,000 products building them takes 0.2 to 0.4 s, which the loop would spend with every other
/// request waiting; asked for here, ahead of routing, they are built on another thread while only the requests
/// that need them wait.
extension Router {
    /// The indexes one request needs that may not be built yet, each a step that starts building its index unless
    /// it is kept and calls back once it is (false, and no call, when it is kept already).
    struct Groundwork: Sendable {
        typealias Step = @Sendable (_ ready: @escaping @Sendable () -> Void) -> Bool
        fileprivate let steps: [Step]

        /// Starts building, off the loop, each index not built yet, and calls `ready` (on the builder's thread) once
        /// all are; false when every one is kept, and the request is routed now.
        func start(then ready: @escaping @Sendable () -> Void) -> Bool {
            Groundwork.run(steps[...], then: ready)
        }

        /// Runs `steps` one after another, each once the one before is ready.
        private static func run(_ steps: ArraySlice<Step>, then ready: @escaping @Sendable () -> Void) -> Bool {
            guard let first = steps.first else { return false }
            let rest = steps.dropFirst()
            if first({ if !run(rest, then: ready) { ready() } }) { return true }
            return run(rest, then: ready)
        }
    }

    /// What `request` needs built before it is routed, if it searches or sorts a collection; nil for anything else
    /// (or a query the route will refuse), which the route answers at once.
    func groundwork(for request: HTTPRequest) -> Groundwork? {
        let steps = steps(for: request)
        return steps.isEmpty ? nil : Groundwork(steps: steps)
    }

    /// A step per index a read of a collection searches or sorts by.
    private func steps(for request: HTTPRequest) -> [Groundwork.Step] {
        guard request.rawQuery != nil, request.method == "GET" || request.method == "HEAD" else { return [] }
        var cursor = PathCursor(request.path)
        guard var first = cursor.next() else { return [] }
        // `/auth/products/…` routes `/products/…` behind the token check.
        if RoutePattern.word(first, equals: "auth"), let mounted = cursor.next() { first = mounted }
        let searches = cursor.next().map { RoutePattern.word($0, equals: "search") } ?? false
        let query = request.query
        guard searches || query["sortBy"] != nil, let list = try? ListQuery.parse(query) else { return [] }
        let word = QueryParameters.decodePath(first).lowercased()
        let search = searches && !list.search.isEmpty

        var steps: [Groundwork.Step] = []
        if let collection = catalog.collections[word] ?? builtInCollection(Router.aliases[word] ?? word) {
            // Your own collections search every string field; a built-in resource searches only when it has fields.
            if search, collection.searchFields != nil || catalog.collections[word] != nil {
                steps.append { ready in collection.prepareSearch(then: ready) }
            }
            if let field = list.sortBy {
                steps.append { ready in collection.columns.prepare(field, of: collection.records, then: ready) }
            }
        }
        return steps
    }

    /// A built-in resource already loaded: the products, which load at start, or another one a route asked for
    /// (one not loaded yet is small: the embedded data, or users the route loads first).
    private func builtInCollection(_ name: String) -> RecordCollection? {
        if name == "products" { return catalog.products }
        return catalog.builtIns.withLock { $0[name] }
    }
}
