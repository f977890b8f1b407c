/// One row of the route table: a method and a path pattern, and what answers them.
///
/// The table (`Router.table`) is the only place a route is declared: the router dispatches through it, and the
/// spec-parity test compares it with `openapi/openapi.yaml`'s paths.
struct Route: Sendable {
    /// What a matched route's handler returns, or the DummyJSON-style error it throws.
    typealias Handler = @Sendable (Router, RouteContext) throws(APIError) -> HTTPResponse

    enum Action: Sendable {
        /// Answered by the handler.
        case respond(Handler)
        /// `/products/stream`: answered by the pipeline's stream delivery (`Router+Stream`), never by `route`.
        case stream
        /// `/auth/…`: every route again behind the token check, for paths no other `/auth` route matches.
        case mount
    }

    /// The upper-case method; HEAD is served by the GET rows.
    let method: String
    let pattern: RoutePattern
    let action: Action

    init(_ method: String, _ template: String, _ handler: @escaping Handler) {
        self.init(method, template, action: .respond(handler))
    }

    init(_ method: String, _ template: String, action: Action) {
        self.method = method
        pattern = RoutePattern(template)
        self.action = action
    }

    /// The methods that reach routing (evhttp refuses the ones it does not know; OPTIONS is the preflight), in the
    /// order `Allow` lists them.
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "TRACE"]

    /// The same handler for every method in `methods` (the status and health routes answer any method).
    static func any(_ template: String, _ handler: @escaping Handler) -> [Route] {
        methods.map { Route($0, template, handler) }
    }
}
