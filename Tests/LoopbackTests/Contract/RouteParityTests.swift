import Foundation
import Testing
@testable import Understudy

/// The spec and the server agree on routes, as the server answers them, with no list kept by hand:
///
/// - every path of `openapi/openapi.yaml` is served, with exactly the methods listed under it (and under every other
///   template the same URL matches, as `/products/add` also matches `/products/{id}`): listed methods get an
///   answer other than the unknown-route 404 or a 405, HEAD the same status as GET, and every other method a 405
///   whose `Allow` names the listed ones;
/// - the router's table (`Router.table`, the only routes it dispatches to) lists exactly the spec's public paths and
///   methods, aliases resolved and `/auth/…` mounted; the admin API, which is not in the table, is crawled over
///   the spec's own words, and every admin path it finds must be in the spec.
///
/// OPTIONS is left out: it is the CORS preflight, a 204 on every path.
@Suite struct RouteParityTests {
    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "TRACE"]
    /// Ends `/products/stream` after one event; every other route ignores these parameters.
    static let query = "?count=1&interval=10"

    @Test func theSpecListsRoutes() {
        #expect(SpecRoutes.paths.count >= 60)
        #expect(SpecRoutes.paths.allSatisfy { !$0.methods.isEmpty })
    }

    @Test(arguments: SpecRoutes.paths)
    func everySpecPathIsServedWithItsMethods(path: SpecRoutes.Path) async throws {
        let concrete = SpecRoutes.sample(path.template)
        let listed = SpecRoutes.templates(matching: concrete).reduce(into: Set<String>()) { $0.formUnion($1.methods) }
        try await withServer { _, client in
            let headers = ["Authorization": "Bearer \(try await client.accessToken())"]
            var statuses: [String: Int] = [:]
            for method in RouteParityTests.methods {
                let reply = try await client.send(method, concrete + RouteParityTests.query, headers: headers)
                statuses[method] = reply.status
                if listed.contains(method) {
                    #expect(!RouteParityTests.isUnknownRoute(reply) && reply.status != 405,
                            "\(method) \(concrete): \(reply.status) \(reply.message ?? "")")
                } else {
                    #expect(reply.status == 405, "\(method) \(concrete) is served, but the spec does not list it")
                    let allow = Set((reply.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(allow == listed, "Allow on \(method) \(concrete)")
                }
            }
            if listed.contains("GET") { #expect(statuses["HEAD"] == statuses["GET"], "HEAD \(concrete)") }
        }
    }

    /// The table and the spec list the same paths with the same methods (HEAD wherever GET is). An alias row
    /// (`/users/login`) counts as the path it is documented as; a spec path under `/auth/` that no row has is the
    /// mount, served as the path without `/auth` is.
    @Test func theRouteTableIsTheSpecsPaths() {
        var table: [String: Set<String>] = [:]
        for route in Router.table {
            if case .mount = route.action { continue }
            let template = SpecRoutes.documented(route.pattern.template.replacingOccurrences(of: "...}", with: "}"))
            table[template, default: []].insert(route.method)
            if route.method == "GET" { table[template, default: []].insert("HEAD") }
        }
        var spec: [String: Set<String>] = [:]
        for path in SpecRoutes.allPaths where !path.template.hasPrefix(AdminPath.prefix + "/") {
            spec[path.template, default: []].formUnion(path.methods)
        }
        for (template, methods) in spec where template.hasPrefix("/auth/") && table[template] == nil {
            #expect(table[String(template.dropFirst("/auth".count))] == methods, "\(template) is the mount of a route")
            spec[template] = nil
        }
        for template in Set(spec.keys).union(table.keys).sorted() where spec[template] != table[template] {
            Issue.record("\(template): the spec lists \(spec[template]?.sorted() ?? []), the table \(table[template]?.sorted() ?? [])")
        }
        #expect(table.count > 60)
    }

    /// A crawl of the admin API (which answers before the route table): every path of one and two words under
    /// `/__understudy/` from the spec's vocabulary. What answers anything but the unknown-route 404 must be
    /// documented.
    @Test func nothingOutsideTheSpecIsServedByTheAdminAPI() async throws {
        let words = SpecRoutes.vocabulary + RouteParityTests.plausible
        try await withServer { _, client in
            let paths = words.map { AdminPath.prefix + "/" + $0 } + words.flatMap { a in words.map { "\(AdminPath.prefix)/\(a)/\($0)" } }
            let served = try await RouteParityTests.served(paths, client: client, headers: [:])
            #expect(served.count > 5)
            let undocumented = served.filter { SpecRoutes.templates(matching: SpecRoutes.documented($0)).isEmpty }
            #expect(undocumented.isEmpty, "served but not in the spec: \(undocumented.sorted())")
        }
    }

    /// Paths a client might try: near misses of real routes, and relations DummyJSON does not have.
    @Test(arguments: ["/users/1/comments", "/users/1/recipes", "/carts/1/x", "/posts/1/likes", "/todos/random/1/x",
                      "/recipes/tag/x/y", "/products/1/reviews", "/products/category/laptops/x",
                      "/auth", "/http", "/https", "/test/x", "/__understudy", "/__understudy/nothing",
                      "/__understudy/health/x", "/__understudy/faults/rule-1/x", "/openapi.json"])
    func unlistedPathsAreNotServed(path: String) async throws {
        try await withServer { _, client in
            let headers = ["Authorization": "Bearer \(try await client.accessToken())"]
            for method in RouteParityTests.methods where method != "HEAD" {
                let reply = try await client.send(method, path, headers: headers)
                #expect(RouteParityTests.isUnknownRoute(reply), "\(method) \(path): \(reply.status) \(reply.message ?? "")")
            }
            #expect(try await client.send("HEAD", path, headers: headers).status == 404)
        }
    }

    static let plausible = ["users", "carts", "posts", "comments", "todos", "quotes", "recipes", "reviews", "image",
                            "icon", "filter", "docs", "openapi.json", "admin", "metrics", "status", "version", "x"]

    static func isUnknownRoute(_ reply: HTTPTestClient.Reply) -> Bool {
        reply.status == 404 && ((reply.message ?? "").hasPrefix("Route ") || (reply.message ?? "").hasPrefix("Admin route "))
    }

    /// The paths among `paths` that a GET finds (anything but the unknown-route 404), 16 requests at a time.
    static func served(_ paths: [String], client: HTTPTestClient, headers: [String: String]) async throws -> [String] {
        var found: [String] = []
        for start in stride(from: 0, to: paths.count, by: 16) {
            let batch = paths[start..<min(start + 16, paths.count)]
            found += try await withThrowingTaskGroup(of: String?.self) { group in
                for path in batch {
                    group.addTask { isUnknownRoute(try await client.send("GET", path + query, headers: headers)) ? nil : path }
                }
                return try await group.reduce(into: []) { if let path = $1 { $0.append(path) } }
            }
        }
        return found
    }
}
