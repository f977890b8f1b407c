import Foundation
import UnderstudyJSON

/// Maps a request to DummyJSON's reply: the pipeline every request goes through (trailing-slash redirect, CORS
/// preflight, query validation, delay), then the route table.
///
/// Pure apart from its response cache and clock, so its behaviour is unit-tested without a socket. One router
/// belongs to one event loop.
final class Router {
    let catalog: Catalog
    let tokens: TokenService
    let now: @Sendable () -> Double
    let cache = ResponseCache()
    var listing: ProductListing { ProductListing(catalog: catalog) }

    init(catalog: Catalog, tokens: TokenService, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.catalog = catalog
        self.tokens = tokens
        self.now = now
    }

    /// The reply for `request`, and the delay it asked for.
    func route(_ request: HTTPRequest) -> RoutedResponse {
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
        let segments = request.path.utf8.split(separator: UInt8(ascii: "/")).map { QueryParameters.decodePath(Substring($0)) }
        let method = request.method == "HEAD" ? "GET" : request.method
        do {
            return RoutedResponse(try dispatch(request, method: method, segments[...], query),
                                  delayMilliseconds: query.delayMilliseconds)
        } catch {
            return RoutedResponse(error.response, delayMilliseconds: query.delayMilliseconds)
        }
    }

    /// Routes by path segments; `method` is the request's, with HEAD read as GET.
    func dispatch(_ request: HTTPRequest, method: String, _ segments: ArraySlice<String>,
                  _ query: ListQuery) throws(APIError) -> HTTPResponse {
        guard let resource = segments.first else {
            try require("GET", method, request)
            return index
        }
        let rest = segments.dropFirst()
        // Your own collections come first: a `todos.json` given with --fixtures replaces the built-in todos.
        if !catalog.collections.isEmpty, let collection = catalog.collections[resource.lowercased()] {
            return try collectionRoute(collection, request, method: method, rest, query)
        }
        switch resource {
        case "products", "product":
            return try productRoute(request, method: method, rest, query)
        case "auth":
            return try authRoute(request, method: method, rest, query)
        case "users" where method == "POST" && rest.count == 1 && rest.first == "login",
             "user" where method == "POST" && rest.count == 1 && rest.first == "login":
            return try login(request)
        case "users" where method == "GET" && rest.count == 1 && rest.first == "me",
             "user" where method == "GET" && rest.count == 1 && rest.first == "me":
            return try me(request)
        case "users", "user":
            return try userRoute(request, method: method, rest, query)
        case "posts", "post":
            return try postRoute(request, method: method, rest, query)
        case "comments", "comment":
            return try commentRoute(request, method: method, rest, query)
        case "todos", "todo":
            return try todoRoute(request, method: method, rest, query)
        case "carts", "cart":
            return try cartRoute(request, method: method, rest, query)
        case "quotes", "quote":
            return try quoteRoute(request, method: method, rest, query)
        case "recipes", "recipe":
            return try recipeRoute(request, method: method, rest, query)
        case "http", "https":
            return try statusRoute(request, Array(rest))
        case "test" where rest.isEmpty, "ping" where rest.isEmpty, "health" where rest.isEmpty:
            return health(method: request.method)
        default:
            throw notFound(request)
        }
    }

    /// The route answers only `allowed`; any other method gets 405 naming the ones it takes.
    func require(_ allowed: String, _ method: String, _ request: HTTPRequest) throws(APIError) {
        guard method == allowed else { throw methodNotAllowed(request, allowed: [allowed]) }
    }

    func methodNotAllowed(_ request: HTTPRequest, allowed: [String]) -> APIError {
        let allow = allowed.contains("GET") ? allowed + ["HEAD"] : allowed
        return APIError(405, "Method \(request.method) is not allowed on \(request.path); use \(allow.joined(separator: ", "))",
                        headers: ["Allow": allow.joined(separator: ", ")])
    }

    func notFound(_ request: HTTPRequest) -> APIError {
        APIError(404, "Route \(request.method) \(request.path) not found")
    }

    private var index: HTTPResponse {
        .message("Understudy, a DummyJSON-compatible fake backend. Try GET /products, GET /products/1 or POST /auth/login.",
                 status: 200)
    }

    private func health(method: String) -> HTTPResponse {
        var writer = JSONWriter(reservingCapacity: 48)
        writer.writeRaw("{\"status\":\"ok\",\"method\":")
        writer.write(string: method)
        writer.writeRaw("}")
        return .json(writer.bytes)
    }

    private func redirectWithoutTrailingSlash(_ request: HTTPRequest) -> HTTPResponse {
        var location = String(request.path.drop(while: { $0 == "/" }).reversed().drop(while: { $0 == "/" }).reversed())
        location = "/" + location
        if let rawQuery = request.rawQuery { location += "?" + rawQuery }
        var response = HTTPResponse.message("Moved Permanently. Redirecting to \(location)", status: 301)
        response.headers.add("Location", location)
        return response
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
