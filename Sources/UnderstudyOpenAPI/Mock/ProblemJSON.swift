import UnderstudyJSON

/// RFC 9457's `application/problem+json` bodies the mock answers with when the document has no response of its
/// own for a case: `type` (a URN naming the case), `title`, `status`, `detail`, and Understudy's `message` (the
/// same text, which every Understudy error carries), plus `validation` for an invalid request.
enum ProblemJSON {
    static let contentType = "application/problem+json"

    /// A validation item: where (`["body", "name"]`, `["query", "limit"]`), the keyword, and why.
    struct Item: Sendable {
        var location: [String]
        var code: String
        var message: String
    }

    static func response(_ name: String, title: String, status: Int, detail: String, validation: [Item]? = nil,
                         headers: [(name: String, value: String)] = [], operationID: String? = nil) -> MockResponse {
        var members: [JSONObject.Entry] = [
            .init(key: "type", value: .string("urn:understudy:problem:\(name)")),
            .init(key: "title", value: .string(title)),
            .init(key: "status", value: .number(JSONNumber(status))),
            .init(key: "detail", value: .string(detail)),
            .init(key: "message", value: .string(detail)),
        ]
        if let validation {
            members.append(.init(key: "validation", value: .array(validation.map { item in
                .object(JSONObject([
                    .init(key: "location", value: .array(item.location.map(JSONValue.string))),
                    .init(key: "severity", value: .string("Error")),
                    .init(key: "code", value: .string(item.code)),
                    .init(key: "message", value: .string(item.message)),
                ]))
            })))
        }
        var response = MockResponse.json(.object(JSONObject(members)), status: status, type: contentType, operationID: operationID)
        response.headers += headers
        return response
    }
}
