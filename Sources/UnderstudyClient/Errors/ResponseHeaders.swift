import Foundation

/// A response's header fields, looked up by name in any case.
///
/// Apple's `HTTPURLResponse` rewrites names into canonical form (`X-Ratelimit-Limit`) and Linux's, over libcurl,
/// keeps them as sent (`X-RateLimit-Limit`); HTTP names are case-insensitive, so `headers["x-ratelimit-limit"]`
/// answers the same on both.
public struct ResponseHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The fields in the order first set, each with its name as received.
    private var fields: [(name: String, value: String)] = []

    /// Creates an empty set of fields.
    public init() {}

    /// Creates fields from literal pairs; a later pair replaces an earlier one of the same name in any case.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// Creates fields from a dictionary, e.g. `HTTPURLResponse.allHeaderFields` turned into strings.
    ///
    /// - Parameter dictionary: Names and values.
    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { self[name] = value }
    }

    /// The value of the field with this name in any case; setting nil removes it.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            let index = fields.firstIndex { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            switch (index, newValue) {
            case (let index?, let value?): fields[index].value = value
            case (let index?, nil): fields.remove(at: index)
            case (nil, let value?): fields.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// The names as received.
    public var names: [String] { fields.map(\.name) }

    /// How many fields there are.
    public var count: Int { fields.count }

    /// Whether there are none.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates the fields as `(name, value)` pairs.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// Equal when the same names (in any case) have the same values.
    public static func == (lhs: ResponseHeaders, rhs: ResponseHeaders) -> Bool {
        lhs.count == rhs.count && lhs.fields.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// `Name: value` lines.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}
