import UnderstudyLocking

/// The indexes a read needs before its route can answer without holding the event loop up: a collection's search
/// text (`/products/search?q=…`), the values of a filtered-by path (`/users/filter?key=…`) and the order of a
/// sorted-by field (`?sortBy=…`), built the first time one is needed. At 100,000 items building one takes 0.2 to
/// 0.4 s, which the loop would spend with every other request waiting; asked for here, past the fast path and
/// ahead of routing, they are built on another thread while only the requests that need them wait.
extension Router {
    /// What `request` needs built before it is routed, if it searches, filters or sorts a collection by an index
    /// not kept yet; nil for anything else (or a query the route will refuse), which the route answers at once.
    func groundwork(for request: HTTPRequest) -> Groundwork? {
        guard request.rawQuery != nil, request.method == "GET" || request.method == "HEAD" else { return nil }
        var cursor = PathCursor(request.path)
        guard var first = cursor.next() else { return nil }
        // `/auth/products/…` routes `/products/…` behind the token check.
        if RoutePattern.word(first, equals: "auth"), let mounted = cursor.next() { first = mounted }
        let second = cursor.next()
        let searches = second.map { RoutePattern.word($0, equals: "search") } ?? false
        let filters = second.map { RoutePattern.word($0, equals: "filter") } ?? false
        let query = request.query
        guard searches || filters || query["sortBy"] != nil, let list = try? ListQuery.parse(query) else { return nil }
        let word = QueryParameters.decodePath(first).lowercased()
        let own = catalog.collections[word]
        let name = Router.aliases[word] ?? word
        guard let collection = own ?? builtInCollection(name) else { return nil }

        var narrowing: Groundwork.Step?
        // Your own collections search every string field; a built-in resource searches only when it has fields.
        if searches, !list.search.isEmpty, collection.searchFields != nil || own != nil, !collection.searchIsKept {
            narrowing = { ready in collection.prepareSearch(then: ready) }
        }
        // The route filters only by one key and one value (`Router.filter`); your own collections all filter.
        if filters, own != nil || Router.filteringResources.contains(name), let key = Router.filterTerms(query)?.key,
           !collection.filterIsKept(key) {
            narrowing = { ready in collection.prepareFilter(key, then: ready) }
        }
        var sort: Groundwork.Step?
        if let field = list.sortBy, !collection.columns.isKept(field) {
            sort = { ready in collection.columns.prepare(field, of: collection.records, then: ready) }
        }
        return narrowing == nil && sort == nil ? nil : Groundwork(narrowing: narrowing, sort: sort)
    }

    /// The built-in resources with a `GET /{name}/filter` route.
    private static let filteringResources: Set<String> = Set(table.compactMap { route in
        guard route.method == "GET", route.pattern.segments.count == 2,
              route.pattern.segments[1] == .literal("filter") else { return nil }
        return route.pattern.firstLiteral
    })

    /// A built-in resource already loaded: the products, which load at start, or another one a route asked for
    /// (one not loaded yet is small: the embedded data, or users the route loads first).
    private func builtInCollection(_ name: String) -> RecordCollection? {
        if name == "products" { return catalog.products }
        return catalog.builtIns.withLock { $0[name] }
    }
}
