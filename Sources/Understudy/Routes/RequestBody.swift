import UnderstudyJSON
import UnderstudyOpenAPI

/// Reads a write request's body into fields, as DummyJSON's JSON, urlencoded and multipart parsers do.
enum RequestBody {
    /// The body's top-level fields; an empty body has none.
    /// - Throws: 400 naming the problem when a JSON body does not parse or is not an object, when a multipart body
    ///   is malformed or sent with a method other than POST and PUT (DummyJSON's message); 415 for other types.
    static func fields(of request: HTTPRequest) throws(APIError) -> JSONObject {
        let body = request.body
        let rawContentType = request.headers["Content-Type"] ?? ""
        let contentType = rawContentType.lowercased()
        if contentType.hasPrefix("multipart/form-data") {
            return try multipartFields(of: request, contentType: rawContentType)
        }
        guard let firstByte = body.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return JSONObject() }
        let declaredJSON = contentType.hasPrefix("application/json") || contentType.contains("+json")
        let declaredForm = contentType.hasPrefix("application/x-www-form-urlencoded")
        if !contentType.isEmpty, !declaredJSON, !declaredForm {
            let type = contentType.split(separator: ";").first.map(String.init) ?? contentType
            throw APIError(415, "Unsupported Content-Type '\(type)'; send application/json, application/x-www-form-urlencoded or multipart/form-data")
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
        return formObject(form.pairs.map { (name: $0.name, value: $0.value) })
    }

    private static func multipartFields(of request: HTTPRequest, contentType: String) throws(APIError) -> JSONObject {
        guard request.method == "POST" || request.method == "PUT" else {
            throw APIError(400, "Multipart/form-data is not allowed with \(request.method.lowercased()) requests")
        }
        guard let boundary = MultipartForm.boundary(in: contentType) else {
            throw APIError(400, "Malformed multipart body: the Content-Type has no boundary")
        }
        do {
            return formObject(try MultipartForm.fields(of: request.body, boundary: boundary))
        } catch {
            throw APIError(400, "Malformed multipart body: \(error)")
        }
    }

    /// Form fields as body-parser's extended mode reads them: a repeated name, or `name[]`, collects an array.
    static func formObject(_ pairs: [(name: String, value: String)]) -> JSONObject {
        var order: [String] = []
        var values: [String: [String]] = [:]
        var isList: Set<String> = []
        for pair in pairs {
            var name = pair.name
            if name.hasSuffix("[]"), name.count > 2 {
                name.removeLast(2)
                isList.insert(name)
            }
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(pair.value)
        }
        return JSONObject(order.map { name in
            let all = values[name] ?? []
            let value: JSONValue = all.count == 1 && !isList.contains(name) ? .string(all[0]) : .array(all.map(JSONValue.string))
            return JSONObject.Entry(key: name, value: value)
        })
    }
}
