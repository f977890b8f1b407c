/// Why a JSON text could not be read, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, e.g. "expected ',' or '}' after an object entry".
    public let reason: String
    /// The byte offset of the problem.
    public let offset: Int
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column (in bytes) of the problem.
    public let column: Int

    public var description: String { "line \(line), column \(column): \(reason)" }
}
