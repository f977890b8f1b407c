/// Why a fault spec was refused: which directive, where, and what is wrong.
///
/// Thrown by the one reader of the grammar, for ``Fault/init(parsing:)`` and for the server (whose 400 carries
/// its fields), and by the remote client, which fills it from the fields of that 400.
public struct FaultSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directive as written, e.g. `stauts=503`.
    public let directive: String
    /// The 1-based position of the directive in the spec, counted in UTF-8 bytes.
    public let position: Int
    /// Why the directive is invalid.
    public let reason: String

    /// Creates an error naming a directive, its position and the reason.
    ///
    /// - Parameters:
    ///   - directive: The directive as written.
    ///   - position: Its 1-based byte position in the spec.
    ///   - reason: What is wrong with it.
    public init(directive: String, position: Int, reason: String) {
        self.directive = directive
        self.position = position
        self.reason = reason
    }

    /// The directive, its position and the reason, in one sentence.
    public var description: String {
        "invalid fault spec: directive '\(directive)' at position \(position): \(reason)"
    }
}
