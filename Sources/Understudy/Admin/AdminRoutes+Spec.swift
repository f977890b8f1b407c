import UnderstudyJSON
import UnderstudyOpenAPI

/// `/__understudy/spec`: the document's operations, with their responses, examples and any preference set on them;
/// setting one (`PUT /spec/operations/{id}` `{"code": 503}`: every request of that operation is answered so, under
/// its own `Prefer`), clearing it, and forgetting the state sessions wrote.
extension AdminRoutes {
    /// The mock, or a 409 when the server serves no document.
    func mock() throws(APIError) -> MockEngine {
        guard let spec else {
            throw APIError(409, "This server serves no OpenAPI document: start it with --spec FILE")
        }
        return spec
    }

    /// The contract check, or a 409 when the server holds no upstream to a document.
    func watch() throws(APIError) -> ContractWatch {
        guard let contract else {
            throw APIError(409, "This server checks no upstream against a document: start it with --upstream URL --spec FILE")
        }
        return contract
    }

    func specOperations() throws(APIError) -> HTTPResponse {
        let engine = try mock()
        let forced = engine.forcedPreferences
        let document = engine.document
        return json(.object(JSONObject([
            .init(key: "title", value: .string(document.title)),
            .init(key: "version", value: .string(document.version)),
            .init(key: "operations", value: .array(document.operations.map { operation(engine, $0, forced: forced[$0.id]) })),
        ])))
    }

    func setPreference(_ request: HTTPRequest, id: String) throws(APIError) -> HTTPResponse {
        let engine = try mock()
        guard let operation = engine.document.operations.first(where: { $0.id == id }) else { throw noOperation(id, engine) }
        let fields = try body(of: request)
        try FaultJSON.allowOnly(["code", "example", "dynamic", "seed"], in: fields)
        var preference = MockPreference()
        if let value = fields["code"], value != .null {
            guard let code = value.intValue, (100...599).contains(code) else {
                throw APIError(400, "Invalid 'code' - must be a status from 100 to 599")
            }
            guard operation.response(forStatus: code) != nil else {
                throw APIError(400, "Invalid 'code' - operation '\(id)' has no response \(code) (nor its range, nor default): it answers \(operation.responses.map(\.code).joined(separator: ", "))")
            }
            preference.code = code
        }
        if let value = fields["example"], value != .null {
            guard let name = value.stringValue else { throw APIError(400, "Invalid 'example' - must be an example's name") }
            preference.example = name
        }
        if let value = fields["dynamic"], value != .null {
            guard case .bool(let flag) = value else { throw APIError(400, "Invalid 'dynamic' - must be true or false") }
            preference.dynamic = flag
        }
        if let value = fields["seed"], value != .null {
            switch value {
            case .string(let text): preference.seed = text
            case .number(let number): preference.seed = number.text
            default: throw APIError(400, "Invalid 'seed' - must be a number or a string")
            }
        }
        engine.force(preference.isEmpty ? nil : preference, operation: id)
        return json(self.operation(engine, operation, forced: preference.isEmpty ? nil : preference))
    }

    func clearPreference(id: String) throws(APIError) -> HTTPResponse {
        let engine = try mock()
        guard let operation = engine.document.operations.first(where: { $0.id == id }) else { throw noOperation(id, engine) }
        engine.force(nil, operation: id)
        return json(self.operation(engine, operation, forced: nil))
    }

    func resetSpecState(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let engine = try mock()
        let session = request.query["session"]
        engine.reset(session: session)
        return .message(session.map { "The state of session '\($0)' is cleared" } ?? "The state of every session is cleared", status: 200)
    }

    private func noOperation(_ id: String, _ engine: MockEngine) -> APIError {
        APIError(404, "No operation '\(id)' in the document; GET /__understudy/spec lists them")
    }

    private func operation(_ engine: MockEngine, _ operation: OpenAPIOperation, forced: MockPreference?) -> JSONValue {
        .object(JSONObject([
            .init(key: "id", value: .string(operation.id)),
            .init(key: "method", value: .string(operation.method)),
            .init(key: "path", value: .string(operation.path)),
            .init(key: "summary", value: operation.summary.map(JSONValue.string) ?? .null),
            .init(key: "deprecated", value: .bool(operation.deprecated)),
            .init(key: "responses", value: .array(operation.responses.map { response in
                .object(JSONObject([
                    .init(key: "code", value: .string(response.code)),
                    .init(key: "mediaTypes", value: .array(response.content.map { .string($0.type) })),
                    .init(key: "examples", value: .array(Array(Set(response.content.flatMap { $0.examples.map(\.name) })).sorted().map(JSONValue.string))),
                ]))
            })),
            .init(key: "preference", value: forced.map { preference in
                .object(JSONObject([
                    .init(key: "code", value: preference.code.map { .number(JSONNumber($0)) } ?? .null),
                    .init(key: "example", value: preference.example.map(JSONValue.string) ?? .null),
                    .init(key: "dynamic", value: preference.dynamic.map(JSONValue.bool) ?? .null),
                    .init(key: "seed", value: preference.seed.map(JSONValue.string) ?? .null),
                ]))
            } ?? .null),
        ]))
    }
}
