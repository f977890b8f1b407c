/// Why a fault spec was refused: which directive, where, and what is wrong.
public struct FaultSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directive as written, e.g. `stauts=503`.
    public let directive: String
    /// The 1-based character position of the directive in the spec.
    public let position: Int
    public let reason: String

    public var description: String {
        "invalid fault spec: directive '\(directive)' at position \(position): \(reason)"
    }
}
