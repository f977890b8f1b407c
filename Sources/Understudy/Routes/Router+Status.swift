import UnderstudyJSON

/// `/http/{code}/{message?}`: any status on demand, as DummyJSON serves it.
extension Router {
    /// `/http/{code}` and `/http/{code}/{message}` (the message may hold further `/`), any method; `/test`, `/ping`
    /// and `/health` echo the method.
    static var statusRoutes: [APIRoute] {
        let status: RouteAction.Handler = { router, context throws(APIError) in
            try router.status(code: context.parameter, message: context.rest)
        }
        let health: RouteAction.Handler = { router, context throws(APIError) in router.health(method: context.request.method) }
        return APIRoute.any("/http/{code}", status) + APIRoute.any("/http/{code}/{message...}", status)
            + APIRoute.any("/test", health) + APIRoute.any("/ping", health) + APIRoute.any("/health", health)
    }

    private func status(code codeText: String, message custom: String) throws(APIError) -> HTTPResponse {
        // DummyJSON answers 500 for these two; they are the caller's mistake, so Understudy answers 400.
        guard !codeText.isEmpty, codeText.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw APIError(400, "Status code '\(codeText)' is invalid")
        }
        guard let code = Int(codeText), ReasonPhrase.isSupportedByHTTPRoute(code) else {
            throw APIError(400, "Status code '\(codeText)' is not supported")
        }
        let message = custom.isEmpty ? ReasonPhrase.forStatus(code) : custom
        if code == 204 || code == 304 { return HTTPResponse(status: code) }
        var writer = JSONWriter(reservingCapacity: 128)
        if code >= 400 {
            writer.writeRaw("{\"status\":")
            writer.write(int: code)
            for key in ["title", "type", "detail", "message"] {
                writer.writeRaw(",")
                writer.write(string: key)
                writer.writeRaw(":")
                writer.write(string: key == "type" ? "about:blank" : message)
            }
            writer.writeRaw("}")
            return HTTPResponse(status: code, headers: ["Content-Type": "application/problem+json; charset=utf-8"],
                                body: .bytes(writer.bytes))
        }
        writer.writeRaw("{\"status\":")
        writer.write(int: code)
        writer.writeRaw(",\"message\":")
        writer.write(string: message)
        writer.writeRaw("}")
        return HTTPResponse(status: code, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(writer.bytes))
    }

    private func health(method: String) -> HTTPResponse {
        var writer = JSONWriter(reservingCapacity: 48)
        writer.writeRaw("{\"status\":\"ok\",\"method\":")
        writer.write(string: method)
        writer.writeRaw("}")
        return .json(writer.bytes)
    }
}
