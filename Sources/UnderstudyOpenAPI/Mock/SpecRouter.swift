/// Finds the operation of a request: its path against every template, most specific first (concrete segments
/// before templated ones), with or without a server's base path (`/v1/pets` or `/pets` for a server at `/v1`); and
/// the methods a matched path takes, for a 405's `Allow`.
package struct SpecRouter: Sendable {
    /// The templates in matching order, each with its operations by method.
    private let routes: [(template: PathTemplate, operations: [String: Int])]
    private let basePaths: [String]

    package init(_ document: OpenAPIDocument) {
        var byTemplate: [String: (PathTemplate, [String: Int])] = [:]
        var order: [String] = []
        for (index, operation) in document.operations.enumerated() {
            if byTemplate[operation.path] == nil {
                byTemplate[operation.path] = (PathTemplate(operation.path), [:])
                order.append(operation.path)
            }
            byTemplate[operation.path]?.1[operation.method] = index
        }
        // A template matches only paths of its length, so lengths may go in any order; within one, concrete
        // segments first, and templates of the same shape keep the document's order. (Comparing lengths by the
        // document's order instead was not a strict weak order: with enough templates the sort put DigitalOcean's
        // /v2/droplets/{droplet_id} before /v2/droplets/autoscale.)
        routes = order.enumerated().sorted { left, right in
            let a = byTemplate[left.element]!.0.rank
            let b = byTemplate[right.element]!.0.rank
            if a.count != b.count { return a.count < b.count }
            guard a == b else { return a.lexicographicallyPrecedes(b) }
            // A template that also asks for query pairs (`/responses?beta=true`) before the same path without.
            let (qa, qb) = (byTemplate[left.element]!.0.query.count, byTemplate[right.element]!.0.query.count)
            return qa != qb ? qa > qb : left.offset < right.offset
        }.map { (byTemplate[$0.element]!.0, byTemplate[$0.element]!.1) }
        basePaths = document.basePaths.sorted { $0.count > $1.count }
    }

    /// What the router found.
    package enum Match: Sendable {
        /// The operation (its index in the document) and the path's parameters, decoded.
        case operation(Int, parameters: [String: String])
        /// The path is the document's, the method is not: the methods it takes.
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    package func route(method: String, path: String, query: String? = nil) -> Match {
        var allowed: [String] = []
        for candidate in candidates(path) {
            let segments = candidate.split(separator: "/", omittingEmptySubsequences: true)
            for route in routes {
                guard let parameters = route.template.match(segments), route.template.accepts(query: query) else { continue }
                if let index = route.operations[method] ?? (method == "HEAD" ? route.operations["GET"] : nil) {
                    return .operation(index, parameters: parameters)
                }
                for taken in route.operations.keys where !allowed.contains(taken) { allowed.append(taken) }
            }
        }
        guard !allowed.isEmpty else { return .notFound }
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY"]
        var sorted = allowed.sorted { (order.firstIndex(of: $0) ?? 99, $0) < (order.firstIndex(of: $1) ?? 99, $1) }
        if sorted.contains("GET"), !sorted.contains("HEAD") { sorted.insert("HEAD", at: sorted.firstIndex(of: "GET")! + 1) }
        return .methodNotAllowed(allowed: sorted)
    }

    /// The path as sent, then without each base path it starts with.
    private func candidates(_ path: String) -> [String] {
        var found = [path]
        for base in basePaths where path.hasPrefix(base + "/") || path == base {
            found.append(String(path.dropFirst(base.count)))
        }
        return found
    }
}
