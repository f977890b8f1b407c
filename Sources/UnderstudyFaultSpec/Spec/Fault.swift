/// A fault spec as a value: the directives of the `X-Understudy-Fault` grammar, typed and composed.
///
/// One vocabulary for every way of asking Understudy for a fault: the in-process server's rules
/// (`FaultRule(fault:)`, `server.faults.add(_:match:)`), the remote client's rules (`UnderstudyControl`), and a
/// header on one request (`request.understudyFault = …`). Each static member is one directive; `+` (or
/// ``init(_:)``) puts them in one spec, in order. ``text`` renders the header grammar exactly, and
/// ``init(parsing:)`` reads it back, so a spec the server reports (`X-Understudy-Fault-Applied`, a rule listed by
/// the admin API) is a `Fault` again.
///
/// ```swift
/// let outage: Fault = .status(503, retryAfter: .seconds(1)) + .delay(.milliseconds(300))
/// outage.text   // "status=503; retry-after=1; delay=300ms"
/// ```
///
/// The server decides which combinations make sense (it refuses `status=503; empty`, a directive given twice,
/// `message` without `status`) and which values are in range (`status=302`, `delay=2m`); a `Fault` built from its
/// static members only guarantees that each directive is well formed, while ``init(parsing:)`` reads with the
/// server's own reader. Durations are kept in whole milliseconds, the server's resolution.
public struct Fault: Sendable, Hashable, CustomStringConvertible {
    /// The directives in order.
    package let directives: [Directive]

    package init(directives: [Directive]) {
        self.directives = directives
    }

    /// One spec from several, their directives in order.
    ///
    /// - Parameter faults: The specs to join.
    public init(_ faults: [Fault]) {
        directives = faults.flatMap(\.directives)
    }

    /// The spec that changes nothing (an empty header).
    public static let none = Fault(directives: [])

    /// Joins two specs: the left one's directives, then the right one's.
    ///
    /// - Parameters:
    ///   - lhs: The first directives.
    ///   - rhs: The directives after them.
    /// - Returns: One spec with both.
    public static func + (lhs: Fault, rhs: Fault) -> Fault {
        Fault(directives: lhs.directives + rhs.directives)
    }

    /// Whether the spec has no directive.
    public var isEmpty: Bool { directives.isEmpty }

    /// Each directive as a spec of its own, in order.
    public var components: [Fault] { directives.map { Fault(directives: [$0]) } }

    /// The directives' names in order, e.g. `["status", "retry-after"]`.
    public var names: [String] { directives.map(\.name.rawValue) }

    /// The spec in the header grammar, directives joined with `; `: what `X-Understudy-Fault`, `_fault=` and a
    /// rule's `fault` take, and exactly the server's normalised text for it.
    public var text: String { directives.map(\.text).joined(separator: "; ") }

    /// The spec in the header grammar (``text``).
    public var description: String { text }
}
