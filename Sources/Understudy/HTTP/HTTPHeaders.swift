/// Header fields in the order received or to be sent; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    /// The fields in order, names as sent.
    public private(set) var fields: [(name: String, value: String)]

    /// Headers holding `fields`, in order.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Headers from a literal, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first(where: { $0.name.caseInsensitiveEquals(name) })?.value
    }

    /// Makes room for `count` fields, so adding them allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Adds a field, keeping any earlier one with the same name (as `Set-Cookie` needs).
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Equal when they hold the same fields, spelled the same, in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive equality, as HTTP field names compare.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.caseInsensitiveEquals(other.utf8)
    }
}

extension Collection<UInt8> {
    /// ASCII case-insensitive equality of two runs of UTF-8, as HTTP field names compare.
    func caseInsensitiveEquals(_ other: some Collection<UInt8>) -> Bool {
        count == other.count && zip(self, other).allSatisfy { left, right in
            left == right || (left | 0x20 == right | 0x20 && (left | 0x20) >= 0x61 && (left | 0x20) <= 0x7A)
        }
    }
}
