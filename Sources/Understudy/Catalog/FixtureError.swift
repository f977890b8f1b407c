/// Why a fixtures file could not be loaded: which file, where in it, and what is wrong.
public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as given.
    public let file: String
    /// The 1-based line and column of the problem, when it has one.
    public let line: Int?
    /// The column (1-based) where the problem is, when it is in the JSON text.
    public let column: Int?
    /// The JSON path of the offending value, e.g. `[12].price`, when the text parsed but a value is wrong.
    public let path: String?
    /// What is wrong.
    public let reason: String

    /// `file:line:column: reason`, as compilers say it.
    public var description: String {
        var location = file
        if let line, let column { location += ":\(line):\(column)" }
        if let path { return "\(location): \(path): \(reason)" }
        return "\(location): \(reason)"
    }
}
