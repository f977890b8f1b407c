/// Why a recording could not be read or written, and where: `file:line:column: reason` for a file edited into
/// something that is not a recording, as fixtures report theirs.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or directory) concerned.
    public var file: String
    /// The 1-based line of the problem, when it is inside a file.
    public var line: Int?
    /// The 1-based column (in bytes) of the problem, when it is inside a file.
    public var column: Int?
    /// What was wrong.
    public var reason: String

    /// An error about `file`, at a position when one is known.
    public init(file: String, line: Int? = nil, column: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `file:line:column: reason`, or `file: reason` when the problem has no position.
    public var description: String {
        if let line, let column { return "\(file):\(line):\(column): \(reason)" }
        return "\(file): \(reason)"
    }
}
