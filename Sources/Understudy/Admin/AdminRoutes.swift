import UnderstudyJSON
import UnderstudyOpenAPI

/// The admin API under `/__understudy/`: rules, sessions, the journal, the seed, offline and reset. JSON in and
/// out; every mistake is a 400 `{"message"}` naming the field. HEAD is answered wherever GET is, as on the public
/// routes (the event loop leaves the body out). Built once the transport is bound; runs on the event loop.
struct AdminRoutes {
    /// Admin bodies are small; anything larger is refused before parsing.
    static let maximumBodySize = 64 << 10

    /// What a matched admin route's handler returns, or the error it throws.
    typealias Handler = @Sendable (AdminRoutes, AdminRouteContext) throws(APIError) -> HTTPResponse

    let faults: FaultController
    let journal: Journal
    let transport: any TransportControls
    /// The upstream, the recorder and the replayed recording's routes (`/__understudy/recording`).
    let recording: RecordingControls
    /// The document served (`--spec`), if any.
    let spec: MockEngine?
    /// The document the upstream's traffic is held to (`--upstream URL --spec FILE`), if any.
    let contract: ContractWatch?
    /// The open WebSockets.
    let sockets: WebSocketHub

    func respond(to request: HTTPRequest) -> HTTPResponse {
        do throws(APIError) {
            guard request.body.count <= AdminRoutes.maximumBodySize else {
                throw APIError(413, "Admin request bodies are limited to \(AdminRoutes.maximumBodySize) bytes")
            }
            if request.method == "POST" || request.method == "PUT", !request.body.isEmpty {
                try AdminRoutes.checkContentType(of: request)
            }
            return try dispatch(request)
        } catch {
            return error.response
        }
    }

    /// Runs the table's row for the request's path and method (HEAD read as GET; the 405 for a HEAD still names
    /// HEAD). A path some rows match with other methods is a 405 naming theirs, any other a 404.
    private func dispatch(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        // Words are compared decoded, so a session id with a space or a slash can be named in a path.
        let path = request.path.dropFirst(AdminPath.prefix.count)
        var captures = RouteCaptures()
        var allowed: [String] = []
        for route in AdminRoutes.table where route.pattern.matches(path, captures: &captures) {
            guard route.method == method else {
                allowed.append(route.method)
                continue
            }
            return try route.action(self, AdminRouteContext(request: request, captures: captures))
        }
        if !allowed.isEmpty { throw RouteMethods.notAllowed(request.method, on: request.path, allowed: allowed) }
        throw APIError(404, "Admin route \(request.method) \(request.path) not found; see /__understudy/health, faults, requests, sessions, reset, offline, seed, scenarios, events")
    }

    func body(of request: HTTPRequest) throws(APIError) -> JSONObject {
        guard !request.body.isEmpty else { return JSONObject() }
        do {
            guard case .object(let object) = try JSONParser.parse(request.body) else {
                throw APIError(400, "Invalid JSON body: expected an object")
            }
            return object
        } catch let error as JSONParseError {
            throw APIError(400, "Invalid JSON body: \(error)")
        } catch {
            throw APIError(400, "Invalid JSON body: expected an object")
        }
    }

    /// Admin bodies are JSON. A body with no type, a JSON type, or the urlencoded type with JSON in it (what
    /// `curl -d` sends) is read as JSON; any other declared type is a 415 naming it, as on the public routes.
    static func checkContentType(of request: HTTPRequest) throws(APIError) {
        guard let declared = request.headers["Content-Type"] else { return }
        let type = (declared.split(separator: ";").first.map(String.init) ?? declared).trimmingJSWhitespace().lowercased()
        if type.isEmpty || type == "application/json" || type.hasSuffix("+json") { return }
        let firstByte = request.body.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) })
        if type == "application/x-www-form-urlencoded", firstByte == UInt8(ascii: "{") { return }
        throw APIError(415, "Unsupported Content-Type '\(type)'; the admin API takes application/json bodies")
    }

    func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        .json(JSONWriter.encode(value), status: status)
    }

    func deleted(_ count: Int) -> HTTPResponse {
        json(.object(JSONObject([.init(key: "deleted", value: .number(JSONNumber(count)))])))
    }

    func noRule(_ id: String) -> APIError {
        APIError(404, "No fault rule with id '\(id)'")
    }
}
