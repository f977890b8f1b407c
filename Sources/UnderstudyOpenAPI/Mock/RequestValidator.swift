import UnderstudyJSON

/// Checks a request against its operation: the security it needs (401), the body's media type (415), then every
/// parameter and the body against their schemas, each failure with its place (`["query", "limit"]`,
/// `["body", "tags", "0"]`). Cookies are checked too, which Prism does not.
struct RequestValidator {
    let document: OpenAPIDocument
    let decoder: ParameterDecoder
    /// For bodies: formats are asserted in a 3.0 document (as draft 4 tools and Prism do), annotations in 3.1 and
    /// later (JSON Schema 2020-12's default), unless asked.
    let validator: SchemaValidator
    /// For parameters, whose text is all they have: formats are asserted.
    let parameterValidator: SchemaValidator

    init(document: OpenAPIDocument, assertsFormats: Bool) {
        self.document = document
        decoder = ParameterDecoder(graph: document.graph)
        var validator = SchemaValidator(graph: document.graph)
        validator.side = .request
        validator.maximumViolations = 20
        validator.assertsFormats = true
        parameterValidator = validator
        validator.assertsFormats = assertsFormats || document.dialect == .openAPI30
        self.validator = validator
    }

    /// What is wrong with a request, in the order it is answered.
    enum Failure {
        /// Credentials a security requirement needs are absent; the challenges for `WWW-Authenticate`.
        case unauthorized(challenges: [String])
        case unsupportedMediaType(String)
        case invalid([ProblemJSON.Item])
    }

    /// The request's body as the operation's media type reads it, for the state and the journal; nil when it has
    /// none or it cannot be read.
    func body(of request: MockRequest, for operation: OpenAPIOperation) -> JSONValue? {
        guard !request.body.isEmpty, let media = mediaType(of: request, for: operation) else { return nil }
        return try? parse(request, as: media)
    }

    func check(_ request: MockRequest, _ operation: OpenAPIOperation, pathParameters: [String: String]) -> Failure? {
        if let challenges = missingCredentials(request, operation) { return .unauthorized(challenges: challenges) }
        var items: [ProblemJSON.Item] = []
        if let body = operation.requestBody {
            // An empty body with a Content-Type other than JSON's is that type's empty value: a form with no fields
            // (which its schema may require some of), an empty text or file.
            let emptyValue = request.body.isEmpty && request.header("Content-Type").map { !MediaTypes.isJSON(MediaTypes.essence($0)) } == true
            if request.body.isEmpty && !emptyValue {
                if body.required { items.append(ProblemJSON.Item(location: ["body"], code: "required", message: "the request body is required")) }
            } else if let media = mediaType(of: request, for: operation) {
                do {
                    let value = try parse(request, as: media)
                    if let schema = media.schema {
                        items += validator.violations(of: value, against: schema).map {
                            ProblemJSON.Item(location: ["body"] + $0.path, code: $0.keyword, message: $0.message)
                        }
                    }
                } catch {
                    items.append(ProblemJSON.Item(location: ["body"], code: "parse", message: error.description))
                }
            } else {
                let types = body.content.map(\.type).joined(separator: ", ")
                return .unsupportedMediaType("Content-Type '\(request.header("Content-Type") ?? "")' is not one this operation takes: \(types)")
            }
        } else if !request.body.isEmpty, !["GET", "HEAD", "DELETE", "OPTIONS"].contains(request.method) {
            return .unsupportedMediaType("this operation takes no request body, but one was sent")
        }
        items += parameterFailures(request, operation, pathParameters: pathParameters)
        return items.isEmpty ? nil : .invalid(items)
    }

    private func parameterFailures(_ request: MockRequest, _ operation: OpenAPIOperation,
                                   pathParameters: [String: String]) -> [ProblemJSON.Item] {
        var items: [ProblemJSON.Item] = []
        let query = request.query
        let cookies = request.header("Cookie").map(Self.cookies) ?? []
        for parameter in operation.parameters {
            let value: JSONValue?
            switch parameter.location {
            case .path: value = pathParameters[parameter.name].map { decoder.value(parameter, text: $0) }
            case .query: value = decoder.queryValue(parameter, in: query)
            case .querystring: value = request.rawQuery.map { .string($0) }
            case .header: value = request.header(parameter.name).map { decoder.value(parameter, text: $0) }
            case .cookie: value = cookies.first { $0.name == parameter.name }.map { decoder.value(parameter, text: $0.value) }
            }
            let place = parameter.location.rawValue
            guard let value else {
                if parameter.required {
                    items.append(ProblemJSON.Item(location: [place, parameter.name], code: "required",
                                                  message: "the \(place) parameter '\(parameter.name)' is required"))
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            if parameter.allowsEmptyValue, value == .string("") { continue }
            items += parameterValidator.violations(of: value, against: schema).map {
                ProblemJSON.Item(location: [place, parameter.name] + $0.path, code: $0.keyword,
                                 message: "\(place) parameter '\(parameter.name)' \($0.message)")
            }
        }
        return items
    }

    /// The media type of the operation's body that the request's `Content-Type` names (a request with no
    /// `Content-Type` is read as the first); nil when it names none.
    func mediaType(of request: MockRequest, for operation: OpenAPIOperation) -> OpenAPIMediaType? {
        guard let content = operation.requestBody?.content, !content.isEmpty else { return nil }
        guard let declared = request.header("Content-Type") else { return content.first }
        let type = MediaTypes.essence(declared)
        return content.first { MediaTypes.matches(type, pattern: $0.type) }
    }

    /// The body as its media type reads it: JSON, a form, a multipart form, or text.
    func parse(_ request: MockRequest, as media: OpenAPIMediaType) throws(BodyError) -> JSONValue {
        let declared = request.header("Content-Type") ?? media.type
        let type = MediaTypes.essence(declared)
        if request.body.isEmpty, type == "multipart/form-data" || type == "application/x-www-form-urlencoded" {
            return form([], schema: media.schema)
        }
        if MediaTypes.isJSON(type) || (MediaTypes.isJSON(MediaTypes.essence(media.type)) && request.header("Content-Type") == nil) {
            do {
                return try JSONParser.parse(request.body)
            } catch {
                throw BodyError(description: "the body is not JSON: \(error)")
            }
        }
        if type == "application/x-www-form-urlencoded" {
            return form(MockRequest.formPairs(String(decoding: request.body, as: UTF8.self)), schema: media.schema)
        }
        if type == "multipart/form-data" {
            guard let boundary = MultipartForm.boundary(in: declared) else {
                throw BodyError(description: "a multipart body needs a boundary in its Content-Type")
            }
            do {
                return form(try MultipartForm.fields(of: request.body, boundary: boundary, includingFiles: true), schema: media.schema)
            } catch {
                throw BodyError(description: "the multipart body cannot be read: \(error.description)")
            }
        }
        return .string(String(decoding: request.body, as: UTF8.self))
    }

    /// Form fields as the object the schema describes: each property's text read as its type, repeated names as
    /// arrays, a required array that is absent as the empty one.
    private func form(_ pairs: [(name: String, value: String)], schema: Int?) -> JSONValue {
        var node = schema.map { document.graph.nodes[$0] }
        if let ref = node?.ref { node = document.graph.nodes[ref] }
        var entries: [JSONObject.Entry] = []
        for (name, value) in pairs {
            let property = node?.properties.first { $0.name == name }?.schema
            let types = decoder.types(property)
            let parsed: JSONValue
            if types.contains(.object) || types.contains(.array), value.first == "{" || value.first == "[",
               let json = try? JSONParser.parse(value) {
                // A part holding the whole value as JSON (a `session` object).
                parsed = json
            } else if types.contains(.array), let item = decoder.itemSchema(property) {
                // One item of an array written a part per item: read as the item's type (a `keywords` part "true"
                // is the string an array of strings holds).
                parsed = decoder.scalar(value, item)
            } else {
                parsed = decoder.scalar(value, property)
            }
            if let index = entries.firstIndex(where: { $0.key == name }) {
                if case .array(var items) = entries[index].value, decoder.types(property).contains(.array) {
                    items.append(parsed)
                    entries[index].value = .array(items)
                } else {
                    entries[index].value = .array([entries[index].value, parsed])
                }
            } else if decoder.types(property).contains(.array), !decoder.types(property).contains(.string), case .array = parsed {
                entries.append(JSONObject.Entry(key: name, value: parsed))
            } else if decoder.types(property).contains(.array), !decoder.types(property).contains(.string) {
                entries.append(JSONObject.Entry(key: name, value: .array([parsed])))
            } else {
                entries.append(JSONObject.Entry(key: name, value: parsed))
            }
        }
        // A form writes an array as one field per item, so an empty one is no field at all: a required property
        // that may be an array and is absent is read as [] (its minItems still holds it to more). OpenAI's image
        // edit takes `image` as one file or an array of them; schemathesis sends the empty array as nothing.
        for name in node?.required ?? [] where !entries.contains(where: { $0.key == name }) {
            let property = node?.properties.first { $0.name == name }?.schema
            if property != nil, decoder.types(property).contains(.array) { entries.append(JSONObject.Entry(key: name, value: .array([]))) }
        }
        return .object(JSONObject(entries))
    }

    /// The security requirements no alternative of which the request meets: the challenges to send, or nil when one
    /// is met (or none is asked).
    private func missingCredentials(_ request: MockRequest, _ operation: OpenAPIOperation) -> [String]? {
        guard !operation.security.isEmpty else { return nil }
        var challenges: [String] = []
        for requirement in operation.security {
            var met = true
            for (name, _) in requirement {
                guard let scheme = document.securitySchemes[name] else { continue }
                if !present(scheme, in: request) {
                    met = false
                    if let challenge = Self.challenge(scheme), !challenges.contains(challenge) { challenges.append(challenge) }
                }
            }
            if met { return nil }
        }
        return challenges
    }

    private func present(_ scheme: OpenAPISecurityScheme, in request: MockRequest) -> Bool {
        let authorization = request.header("Authorization") ?? ""
        func starts(_ prefix: String) -> Bool {
            authorization.count > prefix.count && authorization.lowercased().hasPrefix(prefix.lowercased())
        }
        switch scheme.kind {
        case .apiKey(let name, let location):
            switch location {
            case "query": return request.query.contains { $0.name == name && !$0.value.isEmpty }
            case "cookie": return (request.header("Cookie").map(Self.cookies) ?? []).contains { $0.name == name }
            default: return !(request.header(name) ?? "").isEmpty
            }
        case .http(let kind):
            switch kind {
            case "basic": return starts("Basic ")
            case "digest": return starts("Digest ")
            case "bearer": return starts("Bearer ")
            default: return !authorization.isEmpty
            }
        case .oauth2, .openIdConnect: return starts("Bearer ")
        case .mutualTLS: return true
        }
    }

    /// The `WWW-Authenticate` challenge of a scheme (an API key has no standard one: it is named so a person sees
    /// what to send).
    static func challenge(_ scheme: OpenAPISecurityScheme) -> String? {
        switch scheme.kind {
        case .http(let kind) where kind == "basic": "Basic realm=\"Understudy\""
        case .http(let kind) where kind == "digest": "Digest realm=\"Understudy\", nonce=\"understudy\""
        case .http: "Bearer"
        case .oauth2, .openIdConnect: "Bearer"
        case .apiKey(let name, let location): "APIKey \(location)=\"\(name)\""
        case .mutualTLS: nil
        }
    }

    static func cookies(_ header: String) -> [(name: String, value: String)] {
        header.split(separator: ";").compactMap { pair in
            let pieces = pair.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { return nil }
            return (pieces[0].trimmingSpaces, pieces[1].trimmingSpaces)
        }
    }
}

/// A body its media type cannot read.
struct BodyError: Error {
    let description: String
}
