import UnderstudyJSON

/// How a scalar's text becomes a JSON value: YAML 1.2's core schema for plain scalars, as JSON tools read a tree,
/// so `on`, `yes`, `NO` and `2024-01-01` stay strings. Integers are written as JSON writes them (`0`, or no leading
/// zero): `0755` stays the string it was meant as, where YAML 1.1 made it 493.
enum YAMLScalar {
    /// The value of a scalar with `text`, read plain (resolved) or not (a string), or as an explicit core tag says.
    static func value(_ text: String, plain: Bool, tag: String?) -> JSONValue {
        if let tag, let tagged = tagged(text, tag: tag) { return tagged }
        guard plain, tag == nil else { return .string(text) }
        return resolved(text)
    }

    /// The key a mapping stores for a scalar: its text, or for a plain one the JSON text of its resolved value
    /// (`200:` is the key "200", `true:` "true", `~:` "null"). JSON has only string keys.
    static func key(_ text: String, plain: Bool, tag: String?) -> String {
        key(of: value(text, plain: plain, tag: tag), text: text)
    }

    /// The key a mapping stores for a scalar of `text` whose value is `value`.
    static func key(of value: JSONValue, text: String) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array, .object: text
        }
    }

    private static func resolved(_ text: String) -> JSONValue {
        guard let first = text.utf8.first else { return .null }
        // Most plain scalars are words: one look at the first byte tells they can be nothing else.
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"):
            if ["null", "Null", "NULL", "~"].contains(text) { return .null }
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            if ["true", "True", "TRUE"].contains(text) { return .bool(true) }
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            if ["false", "False", "FALSE"].contains(text) { return .bool(false) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            if let number = number(Array(text.utf8), text) { return number }
        default:
            break
        }
        return .string(text)
    }

    private static func tagged(_ text: String, tag: String) -> JSONValue? {
        switch tag {
        case "tag:yaml.org,2002:str": return .string(text)
        case "tag:yaml.org,2002:null": return .null
        case "tag:yaml.org,2002:bool":
            if ["true", "True", "TRUE"].contains(text) { return .bool(true) }
            if ["false", "False", "FALSE"].contains(text) { return .bool(false) }
            return .string(text)
        case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float":
            return number(Array(text.utf8), text) ?? .string(text)
        default:
            // A local tag (`!thing`), or the non-specific `!`: the text as it is.
            return .string(text)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A number under the core schema (decimal, `0o` octal, `0x` hexadecimal, floats, `.inf`, `.nan`); nil for
    /// anything else. JSON has no infinity or NaN: those read as numbers that JSON writes as `null`.
    private static func number(_ bytes: [UInt8], _ text: String) -> JSONValue? {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let radix: Int? = switch bytes[1] {
            case UInt8(ascii: "o"): 8
            case UInt8(ascii: "x"): 16
            default: nil
            }
            if let radix {
                let digits = String(decoding: bytes[2...], as: UTF8.self)
                guard let value = UInt64(digits, radix: radix) else { return nil }
                return .number(JSONNumber.parsed(String(value)) ?? JSONNumber(Double(value)))
            }
        }
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(JSONNumber(Double.infinity))
        case "-.inf", "-.Inf", "-.INF": return .number(JSONNumber(-Double.infinity))
        case ".nan", ".NaN", ".NAN": return .number(JSONNumber(Double.nan))
        default: break
        }
        var index = 0
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = index - integerStart
        var fractionDigits = 0
        var isFloat = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isFloat = true
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            fractionDigits = index - fractionStart
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isFloat = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return nil }
        }
        guard index == bytes.count else { return nil }
        // An integer with a leading zero is not one JSON would write: it stays a string.
        if !isFloat, integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { return nil }
        let unsigned = bytes[0] == UInt8(ascii: "+") ? String(text.dropFirst()) : text
        // JSON has no `+`, no `.5` and no `5.`: the number's value is read from a JSON spelling of the same text.
        var spelled = unsigned
        if spelled.hasPrefix(".") { spelled = "0" + spelled }
        if spelled.hasPrefix("-.") { spelled = "-0" + spelled.dropFirst() }
        spelled = spelled.replacingDotBeforeExponentOrEnd()
        return JSONNumber.parsed(spelled).map(JSONValue.number)
    }
}

private extension String {
    /// `5.` → `5.0`, `5.e3` → `5.0e3`: a dot with no digit after it gets one.
    func replacingDotBeforeExponentOrEnd() -> String {
        var bytes = Array(utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "."), index + 1 == bytes.count || bytes[index + 1] | 0x20 == UInt8(ascii: "e") {
                bytes.insert(UInt8(ascii: "0"), at: index + 1)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
