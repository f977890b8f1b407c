/// A JSON document that keeps what DummyJSON's Node server would keep: object key order and number text.
///
/// Understudy replays fixtures key by key, so the order a file was written in is the order a client reads.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The object's value for `key`, or nil when this is not an object or the key is absent.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// A short name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string value, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The numeric value, if this is a number.
    public var doubleValue: Double? {
        if case .number(let value) = self { value.double } else { nil }
    }

    /// The integer value, if this is a number without a fractional part that fits in `Int`.
    public var intValue: Int? {
        guard case .number(let value) = self else { return nil }
        return value.exactInt
    }

    /// JavaScript truthiness: `false`, `0`, `""` and `null` are falsy; arrays and objects are truthy.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value): value.double != 0 && !value.double.isNaN
        case .string(let value): !value.isEmpty
        case .array, .object: true
        }
    }
}

/// A JSON number that remembers how it is written, so `10` stays `10` and `9.99` stays `9.99`.
public struct JSONNumber: Sendable, Equatable {
    /// The number's canonical JSON text.
    public let text: String
    /// The number's value.
    public let double: Double

    /// A number from its JSON text; the text is normalised the way `JSON.stringify` would print it.
    init(parsedText: String, value: Double) {
        self.double = value
        self.text = JSONNumber.canonicalText(parsedText, value: value)
    }

    /// An integer number.
    public init(_ value: Int) {
        self.double = Double(value)
        self.text = String(value)
    }

    /// 2^53 − 1: the largest integer every JSON reader (JavaScript's included) keeps exactly.
    public static let largestExactInteger = 9_007_199_254_740_991

    /// A seed, written as an unsigned integer.
    public init(seed: UInt64) {
        self.double = Double(seed)
        self.text = String(seed)
    }

    /// A floating-point number, printed in its shortest round-tripping form.
    public init(_ value: Double) {
        self.double = value
        self.text = JSONNumber.canonicalText(nil, value: value)
    }

    /// The value as `Int` when it has no fractional part and fits.
    public var exactInt: Int? {
        guard double.rounded() == double, abs(double) < 9.0e15 else { return nil }
        return Int(double)
    }

    private static func canonicalText(_ parsed: String?, value: Double) -> String {
        // As `JSON.stringify`: JSON has no NaN or Infinity.
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 9.0e15 {
            return String(Int(value))
        }
        if let parsed, !parsed.contains(where: { $0 == "e" || $0 == "E" }), !parsed.hasSuffix("0") {
            return parsed
        }
        return value.description
    }
}

/// A JSON object whose entries keep their order.
public struct JSONObject: Sendable, Equatable {
    /// One key and its value.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in document order.
    public var entries: [Entry]

    /// An object from ordered entries.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The value for `key` (the last one, as `JSON.parse` keeps, when a key repeats).
    public subscript(key: String) -> JSONValue? {
        get { entries.last(where: { $0.key == key })?.value }
        set {
            if let index = entries.lastIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// The keys in document order.
    public var keys: [String] { entries.map(\.key) }
}
