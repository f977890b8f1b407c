import UnderstudyJSON

/// `/http/{code}/{message?}`: any status on demand, as DummyJSON serves it.
extension Router {
    func statusRoute(_ request: HTTPRequest, _ segments: [String]) throws(APIError) -> HTTPResponse {
        guard let codeText = segments.first else {
            throw APIError(404, "Route \(request.method) \(request.path) not found; try /http/404")
        }
        // DummyJSON answers 500 for these two; they are the caller's mistake, so Understudy answers 400.
        guard !codeText.isEmpty, codeText.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw APIError(400, "Status code '\(codeText)' is invalid")
        }
        guard let code = Int(codeText), ReasonPhrase.isSupportedByHTTPRoute(code) else {
            throw APIError(400, "Status code '\(codeText)' is not supported")
        }
        let custom = segments.dropFirst().joined(separator: "/")
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
}
