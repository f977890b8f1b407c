import UnderstudyJSON

extension DocumentBuilder {
    /// The methods a path item may hold, in the order operations are listed (3.2's `query` included).
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    /// The operations of one path item (a `$ref` to one is followed).
    func pathOperations(_ path: String, at location: SchemaLocation,
                        security: [[(scheme: String, scopes: [String])]]) -> [OpenAPIOperation] {
        guard path.hasPrefix("/") else {
            error(location, "a path must start with '/': '\(path)'")
            return []
        }
        guard let (item, itemLocation) = resolved(location) else { return [] }
        let shared = parameters(item["parameters"], at: itemLocation.appending("parameters"))
        var methods: [(String, SchemaLocation)] = DocumentBuilder.methods.compactMap { method in
            item[method] == nil ? nil : (method, itemLocation.appending(method))
        }
        // 3.2's `additionalOperations`: other methods by name.
        if case .object(let more)? = item["additionalOperations"] {
            methods += more.keys.map { ($0, itemLocation.appending("additionalOperations", $0)) }
        }
        return methods.compactMap { method, operationLocation in
            operation(method.uppercased(), path: path, at: operationLocation, shared: shared, security: security)
        }
    }

    private func operation(_ method: String, path: String, at location: SchemaLocation, shared: [OpenAPIParameter],
                           security: [[(scheme: String, scopes: [String])]]) -> OpenAPIOperation? {
        guard let (object, location) = resolved(location) else { return nil }
        var operation = OpenAPIOperation(id: object["operationId"]?.stringValue ?? "\(method) \(path)", method: method,
                                         path: path, location: location)
        operation.summary = object["summary"]?.stringValue
        operation.deprecated = object["deprecated"] == .bool(true)
        operation.stateful = object["x-understudy-state"] != .bool(false)
        // The operation's parameters replace the path item's of the same name and place.
        let own = parameters(object["parameters"], at: location.appending("parameters"))
        operation.parameters = shared.filter { base in !own.contains { $0.name == base.name && $0.location == base.location } } + own
        for parameter in operation.parameters where parameter.location == .path && !path.contains("{\(parameter.name)}") {
            warning(location, "path parameter '\(parameter.name)' is not in the path \(path)")
        }
        if object["requestBody"] != nil, let (body, bodyLocation) = resolved(location.appending("requestBody")) {
            var requestBody = OpenAPIRequestBody()
            requestBody.required = body["required"] == .bool(true)
            requestBody.content = mediaTypes(body["content"], at: bodyLocation.appending("content"))
            operation.requestBody = requestBody
        }
        if case .object(let responses)? = object["responses"] {
            for entry in responses.entries where !entry.key.hasPrefix("x-") {
                if let response = response(entry.key, at: location.appending("responses", entry.key)) {
                    operation.responses.append(response)
                }
            }
        } else if version.hasPrefix("3.0") {
            // 3.1 made `responses` optional; 3.0 requires it.
            error(location, "an operation needs 'responses'")
        }
        operation.security = requirements(object["security"]) ?? security
        return operation
    }

    func parameters(_ value: JSONValue?, at location: SchemaLocation) -> [OpenAPIParameter] {
        guard case .array(let list)? = value else { return [] }
        return list.indices.compactMap { index in parameter(at: location.appending(String(index))) }
    }

    private func parameter(at location: SchemaLocation) -> OpenAPIParameter? {
        guard let (object, location) = resolved(location) else { return nil }
        guard let name = object["name"]?.stringValue, let place = object["in"]?.stringValue.flatMap(OpenAPIParameter.Location.init) else {
            error(location, "a parameter needs 'name' and 'in' (path, query, header or cookie)")
            return nil
        }
        // OpenAPI: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored" (content
        // negotiation, the request body and security say those). DigitalOcean's documents Accept with an enum that
        // a client's `*/*` would break.
        if place == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) {
            warning(location, "header parameter '\(name)' is ignored, as OpenAPI says: the media types and security say it")
            return nil
        }
        // Each place has its own default style; `form` explodes by default.
        let defaultStyle = switch place {
        case .query, .cookie, .querystring: "form"
        case .path, .header: "simple"
        }
        let style = object["style"]?.stringValue ?? defaultStyle
        var parameter = OpenAPIParameter(name: name, location: place, style: style,
                                         explode: object["explode"].map { $0 == .bool(true) } ?? (style == "form"))
        parameter.required = place == .path || object["required"] == .bool(true)
        parameter.deprecated = object["deprecated"] == .bool(true)
        parameter.allowsEmptyValue = object["allowEmptyValue"] == .bool(true)
        parameter.example = object["example"]
        if object["schema"] != nil {
            parameter.schema = schema(at: location.appending("schema"))
            if let example = parameter.example, let schema = parameter.schema {
                examples.append((example, schema, location.appending("example")))
            }
        } else if let content = mediaTypes(object["content"], at: location.appending("content")).first {
            parameter.schema = content.schema
            parameter.contentType = content.type
        }
        return parameter
    }

    private func response(_ code: String, at location: SchemaLocation) -> OpenAPIResponse? {
        let valid = code == "default" || (code.count == 3 && code.first.map { "12345".contains($0) } == true
            && code.dropFirst().allSatisfy { $0.isNumber || $0 == "X" || $0 == "x" })
        guard valid else {
            error(location, "'\(code)' is not a status code: use 100-599, 1XX-5XX or default")
            return nil
        }
        guard let (object, location) = resolved(location) else { return nil }
        var response = OpenAPIResponse(code: code == "default" ? code : code.uppercased())
        response.description = object["description"]?.stringValue ?? ""
        if case .object(let headers)? = object["headers"] {
            for entry in headers.entries {
                guard let (header, headerLocation) = resolved(location.appending("headers", entry.key)) else { continue }
                var value = OpenAPIHeader()
                value.required = header["required"] == .bool(true)
                value.example = header["example"]
                if header["schema"] != nil { value.schema = schema(at: headerLocation.appending("schema")) }
                response.headers.append((entry.key, value))
            }
        }
        response.content = mediaTypes(object["content"], at: location.appending("content"))
        return response
    }

    /// The media types of a `content` map, each with its schema compiled and its examples in order.
    func mediaTypes(_ value: JSONValue?, at location: SchemaLocation) -> [OpenAPIMediaType] {
        guard case .object(let content)? = value else { return [] }
        return content.entries.map { entry in
            let place = location.appending(entry.key)
            var media = OpenAPIMediaType(type: entry.key)
            guard case .object(let object) = entry.value else { return media }
            if object["schema"] != nil { media.schema = schema(at: place.appending("schema")) }
            if object["itemSchema"] != nil { media.itemSchema = schema(at: place.appending("itemSchema")) }
            if let example = object["example"] {
                media.examples.append(("default", example))
                if let schema = media.schema { examples.append((example, schema, place.appending("example"))) }
            }
            if case .object(let named)? = object["examples"] {
                for example in named.entries {
                    guard let (body, exampleLocation) = resolved(place.appending("examples", example.key)) else { continue }
                    // `externalValue` is not fetched: only `value` is served.
                    guard let value = body["value"] ?? (body["dataValue"]) else { continue }
                    media.examples.append((example.key, value))
                    if let schema = media.schema { examples.append((value, schema, exampleLocation.appending("value"))) }
                }
            }
            return media
        }
    }
}
