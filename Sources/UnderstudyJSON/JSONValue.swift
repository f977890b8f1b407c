/// A JSON document that keeps what DummyJSON's Node server would keep: object key order and number text.
///
/// Understudy replays fixtures key by key, so the order a file was written in is the order a client reads.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The object's value for `key`, or nil when this is not an object or the key is absent.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// A short name of the value's JSON type, for error messages.
    package var typeName: String {
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
    package var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The numeric value, if this is a number.
    package var doubleValue: Double? {
        if case .number(let value) = self { value.double } else { nil }
    }

    /// The integer value, if this is a number without a fractional part that fits in `Int`.
    package var intValue: Int? {
        guard case .number(let value) = self else { return nil }
        return value.exactInt
    }

    /// JavaScript truthiness: `false`, `0`, `""` and `null` are falsy; arrays and objects are truthy.
    package var isTruthy: Bool {
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
package struct JSONNumber: Sendable, Equatable {
    /// The number's canonical JSON text.
    package let text: String
    /// The number's value.
    package let double: Double
    /// The exact value of a number written as plain digits that fit in 64 bits, read from its text rather than
    /// from `double`, which keeps only 53 bits (a seed such as 18446744073709551615).
    package let unsignedInteger: UInt64?

    /// A number from its JSON text; the text is normalised the way `JSON.stringify` would print it.
    init(parsedText: String, value: Double) {
        self.double = value
        self.text = JSONNumber.canonicalText(parsedText, value: value)
        if parsedText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            self.unsignedInteger = UInt64(parsedText)
        } else {
            self.unsignedInteger = value >= 0 && value.rounded() == value && value < 9.0e15 ? UInt64(value) : nil
        }
    }

    /// An integer number.
    package init(_ value: Int) {
        self.double = Double(value)
        self.text = String(value)
        self.unsignedInteger = value >= 0 ? UInt64(value) : nil
    }

    /// 2^53 − 1: the largest integer every JSON reader (JavaScript's included) keeps exactly.
    /// A number from its JSON text (`-12`, `3.5e2`), kept as the parser keeps one; nil when it is not a number.
    package static func parsed(_ text: String) -> JSONNumber? {
        guard let value = Double(text) else { return nil }
        return JSONNumber(parsedText: text, value: value)
    }

    package static let largestExactInteger = 9_007_199_254_740_991

    /// A seed, written as an unsigned integer.
    package init(seed: UInt64) {
        self.double = Double(seed)
        self.text = String(seed)
        self.unsignedInteger = seed
    }

    /// A floating-point number, printed in its shortest round-tripping form.
    package init(_ value: Double) {
        self.double = value
        self.text = JSONNumber.canonicalText(nil, value: value)
        self.unsignedInteger = value >= 0 && value.rounded() == value && value < 9.0e15 ? UInt64(value) : nil
    }

    /// Numbers are equal when they print the same and have the same value, however they were written.
    package static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.text == rhs.text && lhs.double == rhs.double
    }

    /// The value as `Int` when it has no fractional part and fits.
    package var exactInt: Int? {
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
        if value.rounded() == value, abs(value) < 1e21 { return wholeDigits(value) }
        return value.description
    }

    /// A whole number below 10^21 as `JSON.stringify` prints it: its shortest digits, then zeros, never an exponent
    /// (9223372036854776000, which a reader takes for an integer; `9.223372036854776e+18` it takes for a float).
    private static func wholeDigits(_ value: Double) -> String {
        let written = value.description
        guard let e = written.firstIndex(of: "e"), let exponent = Int(written[written.index(after: e)...].drop { $0 == "+" }) else {
            return written.hasSuffix(".0") ? String(written.dropLast(2)) : written
        }
        let mantissa = written[..<e]
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        let parts = mantissa.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 && parts[1] != "0" ? String(parts[1]) : ""
        let digits = String(parts[0]) + fraction
        return sign + digits + String(repeating: "0", count: max(0, exponent - fraction.count))
    }
}

/// A JSON object whose entries keep their order.
package struct JSONObject: Sendable, Equatable {
    /// One key and its value.
    package struct Entry: Sendable, Equatable {
        package var key: String
        package var value: JSONValue
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in document order.
    package var entries: [Entry]

    /// An object from ordered entries.
    package init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The value for `key` (the last one, as `JSON.parse` keeps, when a key repeats).
    package subscript(key: String) -> JSONValue? {
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
    package var keys: [String] { entries.map(\.key) }
}
