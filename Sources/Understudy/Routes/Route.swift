/// One row of a route table: a method and a path pattern, and what answers them.
///
/// A table is the only place its routes are declared: the public API's (`Router.table`, whose rows the spec-parity
/// test compares with `openapi/openapi.yaml`'s paths) and the admin API's (`AdminRoutes.table`). Both answer a path
/// some rows match with other methods with a 405 naming theirs (`RouteMethods.notAllowed`).
struct Route<Action: Sendable>: Sendable {
    /// The upper-case method; HEAD is served by the GET rows.
    let method: String
    let pattern: RoutePattern
    let action: Action

    init(_ method: String, _ template: String, caseSensitive: Bool = false, action: Action) {
        self.method = method
        pattern = RoutePattern(template, caseSensitive: caseSensitive)
        self.action = action
    }
}

/// A row of the public API's table (`Router.table`).
typealias APIRoute = Route<RouteAction>

/// What a public route does once matched.
enum RouteAction: Sendable {
    /// What a matched route's handler returns, or the DummyJSON-style error it throws.
    typealias Handler = @Sendable (Router, RouteContext) throws(APIError) -> HTTPResponse

    /// Answered by the handler.
    case respond(Handler)
    /// `/products/stream`: answered by the stream delivery (`Router+Stream`), never by `route`.
    case stream
    /// `/auth/…`: every route again behind the token check, for paths no other `/auth` route matches.
    case mount
}

extension Route where Action == RouteAction {
    init(_ method: String, _ template: String, _ handler: @escaping RouteAction.Handler) {
        self.init(method, template, action: .respond(handler))
    }

    /// The same handler for every method in `RouteMethods.all` (the status and health routes answer any method).
    static func any(_ template: String, _ handler: @escaping RouteAction.Handler) -> [APIRoute] {
        RouteMethods.all.map { APIRoute($0, template, handler) }
    }
}

/// The methods that reach routing, and the 405 both tables answer with.
enum RouteMethods {
    /// The methods that reach routing (evhttp refuses the ones it does not know; OPTIONS is the preflight), in the
    /// order `Allow` lists them.
    static let all = ["GET", "POST", "PUT", "PATCH", "DELETE", "TRACE"]

    /// 405 for `method` on `path`, naming the methods the path takes in `all`'s order (HEAD after them wherever GET
    /// is), in the message and in `Allow`.
    static func notAllowed(_ method: String, on path: Substring, allowed: [String]) -> APIError {
        var allow = all.filter(allowed.contains)
        if allow.contains("GET") { allow.append("HEAD") }
        return APIError(405, "Method \(method) is not allowed on \(path); use \(allow.joined(separator: ", "))",
                        headers: ["Allow": allow.joined(separator: ", ")])
    }
}
