import Foundation
import UnderstudyJSON

/// Holds real exchanges to a document (`--upstream URL --spec FILE`): a request against what its operation takes (an
/// undocumented path or method, missing credentials, a media type, parameters, the body), a reply against what
/// the operation answers (an undocumented status, a content type it does not list, a body or a header that breaks
/// its schema). The same checks as the mock's, reported rather than answered. A value, safe from any thread.
package struct ContractChecker: Sendable {
    package let document: OpenAPIDocument
    let router: SpecRouter
    let requests: RequestValidator
    /// Response bodies: formats asserted as the request validator asserts them (3.0: yes; 3.1: annotations).
    let bodies: SchemaValidator
    /// Header values, whose text is all they have: formats asserted.
    let headers: SchemaValidator
    let decoder: ParameterDecoder

    package init(document: OpenAPIDocument) {
        self.document = document
        router = SpecRouter(document)
        requests = RequestValidator(document: document, assertsFormats: false)
        var validator = SchemaValidator(graph: document.graph)
        validator.side = .response
        validator.maximumViolations = 20
        validator.assertsFormats = true
        headers = validator
        validator.assertsFormats = document.dialect == .openAPI30
        bodies = validator
        decoder = ParameterDecoder(graph: document.graph)
    }

    /// The operation `method` on `path` reaches, if any.
    package func operation(method: String, path: String, query: String? = nil) -> OpenAPIOperation? {
        guard case .operation(let index, _) = router.route(method: method, path: path, query: query) else { return nil }
        return document.operations[index]
    }

    /// What is wrong with a request, and the operation it reaches (nil: none, which is itself a violation).
    package func check(_ request: MockRequest) -> (operation: OpenAPIOperation?, violations: [ContractViolation]) {
        switch router.route(method: request.method, path: request.path, query: request.rawQuery) {
        case .notFound:
            return (nil, [ContractViolation(.request, location: ["request", "path"], keyword: "operation",
                                            message: "no operation of the document has the path \(request.path)")])
        case .methodNotAllowed(let allowed):
            return (nil, [ContractViolation(.request, location: ["request", "method"], keyword: "method",
                                            message: "\(request.method) is not an operation of this path; the document has \(allowed.joined(separator: ", "))")])
        case .operation(let index, let parameters):
            let operation = document.operations[index]
            guard let failure = requests.check(request, operation, pathParameters: parameters) else { return (operation, []) }
            switch failure {
            case .unauthorized:
                return (operation, [ContractViolation(.request, location: ["request", "security"], keyword: "security",
                                                         message: "the operation's security needs credentials the request does not carry")])
            case .unsupportedMediaType(let detail):
                return (operation, [ContractViolation(.request, location: ["request", "body"], keyword: "content-type", message: detail)])
            case .invalid(let items):
                return (operation, items.map { item in
                    let (location, pointer) = ContractChecker.split(item.location, side: "request")
                    return ContractViolation(.request, location: location, pointer: pointer, keyword: item.code, message: item.message)
                })
            }
        }
    }

    /// What is wrong with the reply `status`, `headers`, `body` to a request of `operation`.
    package func check(status: Int, headers: [(name: String, value: String)], body: [UInt8],
                       of operation: OpenAPIOperation, isHead: Bool = false) -> [ContractViolation] {
        guard let response = operation.response(forStatus: status) else {
            return [ContractViolation(.response, location: ["response", "status"], keyword: "status",
                                      message: "\(operation.id) documents no response \(status) (nor its range, nor default): it answers \(operation.responses.map(\.code).joined(separator: ", "))")]
        }
        var violations = check(headers: headers, of: response)
        guard !isHead, !body.isEmpty else { return violations }
        guard !response.content.isEmpty else {
            violations.append(ContractViolation(.response, location: ["response", "body"], keyword: "content",
                                                message: "response \(response.code) of \(operation.id) documents no body, but one came (\(body.count) bytes)"))
            return violations
        }
        let type = headers.first { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value ?? ""
        let essence = MediaTypes.essence(type)
        guard let media = response.content.first(where: { MediaTypes.matches(essence, pattern: MediaTypes.essence($0.type)) }) else {
            violations.append(ContractViolation(.response, location: ["response", "header", "Content-Type"], keyword: "content-type",
                                                message: "'\(type)' is not a media type response \(response.code) of \(operation.id) documents: \(response.content.map(\.type).joined(separator: ", "))"))
            return violations
        }
        guard MediaTypes.isJSON(essence), let schema = media.schema else { return violations }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            violations.append(ContractViolation(.response, location: ["response", "body"], keyword: "parse",
                                                message: "the body is not JSON: \(error)"))
            return violations
        }
        violations += bodies.violations(of: value, against: schema).map {
            ContractViolation(.response, location: ["response", "body"], pointer: JSONPointer.text($0.path), keyword: $0.keyword,
                              message: $0.message)
        }
        return violations
    }

    private func check(headers: [(name: String, value: String)], of response: OpenAPIResponse) -> [ContractViolation] {
        var violations: [ContractViolation] = []
        for (name, header) in response.endToEndHeaders {
            guard let text = headers.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame })?.value else {
                if header.required {
                    violations.append(ContractViolation(.response, location: ["response", "header", name], keyword: "required",
                                                        message: "the header \(name) is required"))
                }
                continue
            }
            guard let schema = header.schema else { continue }
            var parameter = OpenAPIParameter(name: name, location: .header, style: "simple", explode: false)
            parameter.schema = schema
            violations += self.headers.violations(of: decoder.value(parameter, text: text), against: schema).map {
                ContractViolation(.response, location: ["response", "header", name], pointer: JSONPointer.text($0.path),
                                  keyword: $0.keyword, message: $0.message)
            }
        }
        return violations
    }

    /// A validation item's place as a location and, inside a body, a pointer: `["body", "tags", "0"]` is
    /// `request.body` at `/tags/0`.
    static func split(_ place: [String], side: String) -> (location: [String], pointer: String) {
        guard place.first == "body" else { return ([side] + place, "") }
        return ([side, "body"], JSONPointer.text(Array(place.dropFirst())))
    }
}
