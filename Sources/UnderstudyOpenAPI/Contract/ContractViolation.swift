import UnderstudyJSON

/// One way a real exchange breaks the document it is held to: which side, where (a location such as
/// `["response", "body"]` or `["request", "query", "limit"]`, and the JSON pointer into a body), the keyword that
/// failed (a schema keyword, or `operation`, `method`, `status`, `content-type`, `security`, `parse`), and why.
package struct ContractViolation: Sendable, Equatable, CustomStringConvertible {
    package enum Side: String, Sendable {
        case request, response
    }

    package var side: Side
    package var location: [String]
    /// The JSON pointer of the offending value inside a body (empty: the body itself, or no body).
    package var pointer: String
    package var keyword: String
    package var message: String

    package init(_ side: Side, location: [String], pointer: String = "", keyword: String, message: String) {
        self.side = side
        self.location = location
        self.pointer = pointer
        self.keyword = keyword
        self.message = message
    }

    /// `response.body#/items/0/price: type: must be number` — one line, for a log or a CLI.
    package var description: String {
        location.joined(separator: ".") + (pointer.isEmpty ? "" : "#" + pointer) + ": \(keyword): \(message)"
    }

    /// `{"side", "location", "pointer", "keyword", "message"}`, as the header, the journal and the admin API give it.
    package var json: JSONValue {
        .object(JSONObject([
            .init(key: "side", value: .string(side.rawValue)),
            .init(key: "location", value: .array(location.map(JSONValue.string))),
            .init(key: "pointer", value: .string(pointer)),
            .init(key: "keyword", value: .string(keyword)),
            .init(key: "message", value: .string(message)),
        ]))
    }
}
