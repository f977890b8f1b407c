import UnderstudyJSON

/// Equality as JSON Schema means it (`enum`, `const`, `uniqueItems`): numbers by value (`1` is `1.0`), objects
/// whatever their members' order, and `true` never `1`.
enum JSONEquality {
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a.double == b.double
        // Code point by code point: Swift's `==` would equate "é" with "e" and a combining accent.
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.entries.count == b.entries.count else { return false }
            return a.entries.allSatisfy { entry in b[entry.key].map { equal(entry.value, $0) } ?? false }
        default:
            return false
        }
    }
}
