import Foundation
import UnderstudyJSON

/// A request as the mock reads it: the method, the path as sent (still percent-encoded), the query's raw text,
/// the headers and the body.
package struct MockRequest: Sendable {
    package var method: String
    package var path: String
    package var rawQuery: String?
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(method: String, path: String, rawQuery: String? = nil, headers: [(name: String, value: String)] = [],
                 body: [UInt8] = []) {
        self.method = method.uppercased()
        self.path = path
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, in any case.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) }?.value
    }

    /// The query's parameters, decoded (`+` is a space), in order.
    package var query: [(name: String, value: String)] {
        MockRequest.formPairs(rawQuery ?? "")
    }

    /// `a=1&b=x+y` as pairs, decoded as a form is.
    static func formPairs(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in (String(part).replacing("+", with: " ").removingPercentEncoding) ?? String(part) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}

/// What the mock answers: a status, headers and body, and which operation answered (nil: none matched).
package struct MockResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    package var operationID: String?
    /// Whether every request with the same method and target (and no `Accept` or `Prefer`) gets these bytes, until
    /// the engine's `changes` moves: no state, no seed, no credentials or headers it depends on. A server may keep it.
    package var repeatable = false

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], operationID: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.operationID = operationID
    }

    /// A JSON body with its content type.
    static func json(_ value: JSONValue, status: Int, type: String = "application/json", operationID: String? = nil) -> MockResponse {
        MockResponse(status: status, headers: [("Content-Type", type)], body: JSONWriter.encode(value), operationID: operationID)
    }
}

extension String {
    /// ASCII case-insensitive equality, for header names.
    func caseInsensitiveCompare(_ other: String) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { ($0 | 0x20) == ($1 | 0x20) || $0 == $1 }
    }
}
