/// Why a fault spec was refused: which directive, where, and what is wrong.
public struct FaultSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directive as written, e.g. `stauts=503`.
    public let directive: String
    /// The 1-based character position of the directive in the spec.
    public let position: Int
    /// Why the directive is invalid.
    public let reason: String

    /// The directive, its position and the reason, in one sentence.
    public var description: String {
        "invalid fault spec: directive '\(directive)' at position \(position): \(reason)"
    }
}
