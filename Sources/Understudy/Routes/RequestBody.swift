/// Reads a write request's body into fields, as DummyJSON's JSON and urlencoded parsers do.
enum RequestBody {
    /// The body's top-level fields; an empty body has none.
    /// - Throws: 400 naming the problem when a JSON body does not parse or is not an object.
    static func fields(of request: HTTPRequest) throws(APIError) -> JSONObject {
        let body = request.body
        guard let firstByte = body.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return JSONObject() }
        let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
        let declaredJSON = contentType.hasPrefix("application/json") || contentType.contains("+json")
        let declaredForm = contentType.hasPrefix("application/x-www-form-urlencoded")
        if contentType.hasPrefix("multipart/form-data") {
            throw APIError(415, "multipart/form-data bodies are not supported; send JSON or urlencoded fields")
        }
        if !contentType.isEmpty, !declaredJSON, !declaredForm {
            let type = contentType.split(separator: ";").first.map(String.init) ?? contentType
            throw APIError(415, "Unsupported Content-Type '\(type)'; send application/json or application/x-www-form-urlencoded")
        }
        // URLSession labels bodies it was given no type for as urlencoded, so a body that starts like JSON is read
        // as JSON unless it says it is something else.
        let looksLikeJSON = firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")
        if declaredJSON || (looksLikeJSON && (contentType.isEmpty || declaredForm)) {
            let value: JSONValue
            do {
                value = try JSONParser.parse(body)
            } catch {
                throw APIError(400, "Invalid JSON body: \(error)")
            }
            guard case .object(let object) = value else {
                throw APIError(400, "Invalid JSON body: expected an object, found \(value.typeName)")
            }
            return object
        }
        let form = QueryParameters(Substring(decoding: body, as: UTF8.self))
        return JSONObject(form.pairs.map { JSONObject.Entry(key: $0.name, value: .string($0.value)) })
    }
}
