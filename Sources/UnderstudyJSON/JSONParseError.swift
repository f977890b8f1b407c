/// Why a JSON text could not be read, and where.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, e.g. "expected ',' or '}' after an object entry".
    package let reason: String
    /// The byte offset of the problem.
    package let offset: Int
    /// The 1-based line of the problem.
    package let line: Int
    /// The 1-based column (in bytes) of the problem.
    package let column: Int

    package var description: String { "line \(line), column \(column): \(reason)" }
}
