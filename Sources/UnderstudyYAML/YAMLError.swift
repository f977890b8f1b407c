/// Why a YAML text could not become a JSON tree: the parser's complaint or a limit, with where it happened.
package struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line and column of the offending node or character.
    package let line: Int
    package let column: Int
    package let reason: String

    package init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line:column: reason`, for a message that names the file first.
    package var description: String {
        "\(line):\(column): \(reason)"
    }
}
