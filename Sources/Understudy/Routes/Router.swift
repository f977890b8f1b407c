import Foundation
import UnderstudyJSON

/// Maps a request to DummyJSON's reply: the pipeline every request goes through (trailing-slash redirect, CORS
/// preflight, query validation, delay), then the route table (`Router.table`).
///
/// Pure apart from its response cache, its clock and the generators of its random picks, so its behaviour is
/// unit-tested without a socket. One router belongs to one event loop.
final class Router {
    let catalog: Catalog
    let tokens: TokenService
    let now: @Sendable () -> Double
    let cache = ResponseCache()
    /// The generators random picks draw from, one per seed (the server's, or a session's).
    private var pickers: [UInt64: SeededGenerator] = [:]

    init(catalog: Catalog, tokens: TokenService, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.catalog = catalog
        self.tokens = tokens
        self.now = now
    }

    /// The reply for `request`, and the delay it asked for. `seed` is the one its random picks draw from: the
    /// session's, or the server's (1 unless configured).
    func route(_ request: HTTPRequest, seed: UInt64 = 1) -> RoutedResponse {
        // A preflight is answered before the redirect: browsers refuse a redirected preflight.
        if request.method == "OPTIONS" {
            return RoutedResponse(HTTPResponse(status: 204))
        }
        if request.path.utf8.count > 1, request.path.hasSuffix("/") {
            return RoutedResponse(redirectWithoutTrailingSlash(request))
        }
        let query: ListQuery
        do {
            query = try ListQuery.parse(request.query)
        } catch {
            return RoutedResponse(error.response)
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        do {
            return RoutedResponse(try dispatch(request, method: method, query, seed: seed),
                                  delayMilliseconds: query.delayMilliseconds)
        } catch {
            return RoutedResponse(error.response, delayMilliseconds: query.delayMilliseconds)
        }
    }

    /// Runs the first row of the table whose pattern and method match; `method` is the request's, with HEAD read as
    /// GET. A path some rows match with other methods is a 405 naming theirs; a path none matches is a 404.
    /// `reported` is the request the client sent, which the 404 and 405 name (a mounted request's path lacks
    /// `/auth`).
    func dispatch(_ request: HTTPRequest, method: String, _ query: ListQuery, seed: UInt64,
                  reportedAs reported: HTTPRequest? = nil) throws(APIError) -> HTTPResponse {
        let reported = reported ?? request
        let (rows, collection) = candidates(for: request.path)
        var captures = RouteCaptures()
        var allowed: [String] = []
        for row in rows {
            let route = Router.table[row]
            guard route.pattern.matchesAfterFirstWord(request.path, captures: &captures) else { continue }
            switch route.action {
            case .respond(let handler) where route.method == method:
                return try handler(self, RouteContext(request: request, query: query, captures: captures,
                                                      collection: collection, seed: seed))
            case .respond:
                allowed.append(route.method)
            case .stream:
                // Answered by the stream delivery before routing; here it is `/products/{id}`'s id `stream`.
                continue
            case .mount where allowed.isEmpty:
                return try mounted(request, method: method, query, seed: seed, rest: captures.rest ?? "")
            case .mount:
                continue
            }
        }
        if !allowed.isEmpty { throw RouteMethods.notAllowed(reported.method, on: reported.path, allowed: allowed) }
        // A bare `/http` names the path as routed (`/auth/http` as `/http`), as DummyJSON's status route does.
        if let hint = statusCodeMissing(request) { throw hint }
        throw notFound(reported)
    }

    /// The rows a path can match: those of your own collection when its first segment names one (they replace a
    /// built-in resource of that name), else the rows indexed under its first word (an alias read as its resource).
    func candidates(for path: Substring) -> (rows: [Int], collection: RecordCollection?) {
        var cursor = PathCursor(path)
        guard let first = cursor.next() else { return (Router.rowsByFirstWord[""] ?? [], nil) }
        let word = QueryParameters.decodePath(first).lowercased()
        if !catalog.collections.isEmpty, let collection = catalog.collections[word] {
            return (Router.collectionRows, collection)
        }
        return (Router.rowsByFirstWord[Router.aliases[word] ?? word] ?? [], nil)
    }

    /// `/auth/…` that no `/auth` route matched: the token checked, then the rest of the path routed as if sent
    /// without `/auth`, its reply never replayed without the check.
    private func mounted(_ request: HTTPRequest, method: String, _ query: ListQuery, seed: UInt64,
                         rest: Substring) throws(APIError) -> HTTPResponse {
        _ = try authenticate(request)
        var inner = request
        inner.path = rest
        inner.passedTokenCheck = true
        return try dispatch(inner, method: method, query, seed: seed, reportedAs: request)
    }

    /// The unknown-route 404.
    func notFound(_ request: HTTPRequest) -> APIError {
        APIError(404, "Route \(request.method) \(request.path) not found")
    }

    /// The 404 of a bare `/http` (or `/https`), which needs a status code; nil for any other path.
    private func statusCodeMissing(_ request: HTTPRequest) -> APIError? {
        var cursor = PathCursor(request.path)
        guard let first = cursor.next(), cursor.next() == nil,
              RoutePattern.word(first, equals: "http") || RoutePattern.word(first, equals: "https") else { return nil }
        return APIError(404, "Route \(request.method) \(request.path) not found; try /http/404")
    }

    var indexReply: HTTPResponse {
        .message("Understudy, a DummyJSON-compatible fake backend. Try GET /products, GET /products/1 or POST /auth/login.",
                 status: 200)
    }

    private func redirectWithoutTrailingSlash(_ request: HTTPRequest) -> HTTPResponse {
        var location = String(request.path.drop(while: { $0 == "/" }).reversed().drop(while: { $0 == "/" }).reversed())
        location = "/" + location
        if let rawQuery = request.rawQuery { location += "?" + rawQuery }
        var response = HTTPResponse.message("Moved Permanently. Redirecting to \(location)", status: 301)
        response.headers.add("Location", location)
        return response
    }

    /// A 200 JSON reply for a read-only route, from the cache when this exact target was asked before.
    /// `make` hands over a buffer the catalogue already holds (an item's text) without a copy.
    func cachedJSON(_ request: HTTPRequest, _ query: ListQuery, _ make: () -> SharedBytes) -> HTTPResponse {
        // A reply behind /auth is cached (the body is the same) but never canned: the canned path runs before
        // routing, so it would skip the token check.
        let servesDirectly = request.query["_fault"] == nil && !request.passedTokenCheck
        let entry = cache.entry(for: request.target, servesDirectly: servesDirectly,
                                delayMilliseconds: query.delayMilliseconds, make: make)
        var response = HTTPResponse.json(entry.body)
        response.etag = entry.etag
        return response
    }

    /// Runs `body` with the generator random picks under `seed` draw from: the same seed gives the same picks, in
    /// order, on every server.
    func withPicker<T>(seed: UInt64, _ body: (inout SeededGenerator) -> T) -> T {
        var generator = pickers[seed] ?? SeededGenerator(seed: seed, stream: "random picks")
        defer {
            // A session seed is kept as long as its generator is: at most as many as the fault book keeps sessions.
            if pickers[seed] == nil, pickers.count >= FaultBook.maximumSessions + 1 { pickers.removeAll(keepingCapacity: true) }
            pickers[seed] = generator
        }
        return body(&generator)
    }
}

extension QueryParameters {
    /// Percent-decodes a path segment (`+` stays a plus sign in paths).
    static func decodePath(_ segment: Substring) -> String {
        // A byte scan: `Substring.contains("%")` resolves to Foundation's `range(of:)`, which bridges every path
        // segment to NSString (~4 % of the loop's CPU on GET /products/1).
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return String(segment) }
        return decode(Substring(segment.replacingOccurrences(of: "+", with: "%2B")))
    }
}
