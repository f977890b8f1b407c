/// One way a value breaks its schema: where in the value (a JSON pointer), the keyword it broke, and why.
package struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// The tokens of the JSON pointer to the offending value (empty: the value itself).
    package var path: [String]
    package var keyword: String
    package var message: String

    package init(path: [String], keyword: String, message: String) {
        self.path = path
        self.keyword = keyword
        self.message = message
    }

    /// `/pointer: message`.
    package var description: String {
        (path.isEmpty ? "" : JSONPointer.text(path) + ": ") + message
    }
}
