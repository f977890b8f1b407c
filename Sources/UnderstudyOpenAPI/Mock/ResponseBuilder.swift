import UnderstudyJSON

/// Builds an operation's answer: which response (a forced code: exact, its range, then `default`; else the lowest
/// 2xx, else `default` as 200, else the first), which media type (by `Accept`: 406 when none fits), which body (a
/// named example, the first example, or data from the schema, static or seeded) and its headers.
struct ResponseBuilder {
    let document: OpenAPIDocument
    let operation: OpenAPIOperation
    let request: MockRequest
    let context: MockContext
    /// For an invalid request's answer, which Prism gives whatever the request accepts.
    var ignoresAccept = false
    /// Set when a body or header came from the seed (dynamic data, or static data that did not hold and was drawn):
    /// the answer then depends on the seed. Shared by the copies of a builder.
    let seedUse = SeedUse()

    /// The status and response object to answer with; a problem when a forced code is not in the document.
    func choose(code: Int?) -> Result<(status: Int, response: OpenAPIResponse?), MockResponseError> {
        if let code {
            guard let response = operation.response(forStatus: code) else {
                return .failure(MockResponseError(ProblemJSON.response("NOT_FOUND", title: "Not Found", status: 404,
                                                                       detail: "Requested status code \(code) is not defined in the document")))
            }
            return .success((code, response))
        }
        let successes = operation.responses.filter { $0.code.hasPrefix("2") }.sorted { $0.code < $1.code }
        if let first = successes.first { return .success((Self.status(of: first.code), first)) }
        if let fallback = operation.responses.first(where: { $0.code == "default" }) { return .success((200, fallback)) }
        if let first = operation.responses.first { return .success((Self.status(of: first.code), first)) }
        return .success((200, nil))
    }

    /// `404` is 404, `4XX` 400.
    static func status(of code: String) -> Int {
        Int(code) ?? (Int(code.prefix(1)).map { $0 * 100 } ?? 200)
    }

    func response(code: Int?, example: String?) -> MockResponse {
        switch choose(code: code) {
        case .failure(let problem): return withID(problem.response)
        case .success(let (status, response)): return answer(status: status, response: response, example: example, body: nil)
        }
    }

    /// The answer with `status` and `response`: its body `body` when given (what the state keeps), else the named
    /// example, the first one, or data from the schema.
    func answer(status: Int, response: OpenAPIResponse?, example: String?, body given: JSONValue?) -> MockResponse {
        var headers: [(name: String, value: String)] = []
        if operation.deprecated { headers.append(("Deprecation", "true")) }
        guard let response, !response.content.isEmpty, status != 204, status != 304 else {
            headers += responseHeaders(response)
            return MockResponse(status: status, headers: headers, operationID: operation.id)
        }
        guard let media = chooseMedia(response.content) else {
            let accepted = request.header("Accept") ?? ""
            return withID(ProblemJSON.response("NOT_ACCEPTABLE", title: "Not Acceptable", status: 406,
                                               detail: "the response has no media type '\(accepted)' accepts: it has \(response.content.map(\.type).joined(separator: ", "))"))
        }
        let value: JSONValue
        if let given {
            value = given
        } else if let name = example {
            guard let named = media.examples.first(where: { $0.name == name }) else {
                let known = media.examples.map(\.name)
                return withID(ProblemJSON.response("NOT_FOUND", title: "Not Found", status: 404,
                                                   detail: "Response \(status) (\(media.type)) has no example '\(name)'" + (known.isEmpty ? "" : "; it has \(known.joined(separator: ", "))")))
            }
            value = named.value
        } else {
            value = body(for: media, status: status)
        }
        let type = concreteType(media.type, value)
        headers.insert(("Content-Type", type), at: 0)
        headers += responseHeaders(response)
        return MockResponse(status: status, headers: headers, body: Serialization.bytes(value, as: type, itemSchema: media.itemSchema != nil),
                            operationID: operation.id)
    }

    /// The body a media type implies: generated when asked to (`dynamic`), else its first example that holds to its
    /// schema, else static. (An example that does not hold was named at load; a client generated from the document
    /// could not read it. `Prefer: example=` still asks for it by name.)
    func body(for media: OpenAPIMediaType, status: Int) -> JSONValue {
        guard let schema = media.itemSchema ?? media.schema else { return media.examples.first?.value ?? .string("") }
        let generator = ValueGenerator(graph: document.graph, mode: context.dynamic ? .dynamic : .static)
        if !context.dynamic, let first = media.examples.first(where: { media.itemSchema != nil || generator.isValid($0.value, against: schema) }) {
            return first.value
        }
        let random = SeededRandom(seed: context.seed).derived("\(operation.id) \(status) \(media.type)")
        if media.itemSchema != nil {
            // An event stream (3.2's itemSchema): a few items, each an event.
            let count = context.dynamic ? 3 : 1
            let items = (0..<count).map { generator.made(for: schema, random: random.derived("item \($0)")) }
            if items.contains(where: \.drawn) { seedUse.drew = true }
            return .array(items.map(\.value))
        }
        let made = generator.made(for: schema, random: random)
        if made.drawn { seedUse.drew = true }
        return made.value
    }

    /// The media type to answer with: the first the request accepts, best first (the document's order among equals);
    /// without `Accept`, JSON when there is some, else the first. Nil when none fits and `*/*` is not accepted.
    private func chooseMedia(_ content: [OpenAPIMediaType]) -> OpenAPIMediaType? {
        guard !ignoresAccept, let header = request.header("Accept"), !header.isEmpty else {
            return content.first { MediaTypes.isJSON(MediaTypes.essence($0.type)) } ?? content.first
        }
        for accepted in MediaTypes.accepted(header) {
            if let found = content.first(where: { MediaTypes.matches(MediaTypes.essence($0.type), pattern: accepted)
                || MediaTypes.matches(accepted, pattern: $0.type) }) {
                return found
            }
        }
        return nil
    }

    /// A concrete `Content-Type` for a document's range (`*/*`, `application/*`).
    private func concreteType(_ type: String, _ value: JSONValue) -> String {
        switch MediaTypes.essence(type) {
        case "*/*": if case .string = value { "text/plain" } else { "application/json" }
        case "application/*": "application/json"
        case "text/*": "text/plain"
        case let other where other.hasSuffix("/*"): other.replacing("/*", with: "/octet-stream")
        default: type
        }
    }

    /// The response's headers, each its example or a value from its schema.
    private func responseHeaders(_ response: OpenAPIResponse?) -> [(name: String, value: String)] {
        guard let response else { return [] }
        var headers: [(name: String, value: String)] = []
        let generator = ValueGenerator(graph: document.graph, mode: context.dynamic ? .dynamic : .static)
        for (name, header) in response.endToEndHeaders {
            var value = header.example
            if value == nil, let schema = header.schema {
                let made = generator.made(for: schema, random: SeededRandom(seed: context.seed).derived("\(operation.id) header \(name)"))
                if made.drawn { seedUse.drew = true }
                value = made.value
            }
            guard let value else { continue }
            headers.append((name, Serialization.headerText(value)))
        }
        return headers
    }

    private func withID(_ response: MockResponse) -> MockResponse {
        var response = response
        response.operationID = operation.id
        return response
    }
}

/// A problem the builder answers with instead of the document's response.
struct MockResponseError: Error {
    let response: MockResponse

    init(_ response: MockResponse) {
        self.response = response
    }
}

/// Whether an answer drew on its seed.
final class SeedUse {
    var drew = false
}
