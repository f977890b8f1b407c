/// JavaScript's `Number(x)` and `parseInt(x)`, which DummyJSON uses to validate and read `limit`, `skip` and `delay`.
///
/// They differ: `Number("1e3")` is 1000 but `parseInt("1e3")` is 1, and `Number("")` is 0 while `parseInt("")`
/// is NaN. Replaying those quirks is what makes `limit=` return `[]` and `limit=1.9` return one item.
enum JSNumber {
    /// `Number(text)`: NaN when the whole (trimmed) text is not a number.
    static func number(_ text: String) -> Double {
        let trimmed = text.trimmingJSWhitespace()
        if trimmed.isEmpty { return 0 }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let lower = trimmed.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            let digits = lower.dropFirst(2)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && Int(String($0), radix: radix) != nil }) else {
                return .nan
            }
            return digits.reduce(0.0) { $0 * Double(radix) + Double(Int(String($1), radix: radix) ?? 0) }
        }
        guard isDecimalLiteral(trimmed) else { return .nan }
        return Double(trimmed) ?? .nan
    }

    /// `parseInt(text)` (radix 10, or 16 after `0x`): the leading integer, NaN when there is none.
    static func parseInt(_ text: String) -> Double {
        var scalars = Substring(text.trimmingJSWhitespace())
        var sign = 1.0
        if let first = scalars.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            scalars = scalars.dropFirst()
        }
        var radix = 10.0
        if scalars.lowercased().hasPrefix("0x") {
            radix = 16
            scalars = scalars.dropFirst(2)
        }
        let digits = scalars.prefix { character in
            guard let digit = character.hexDigitValue else { return false }
            return Double(digit) < radix
        }
        guard !digits.isEmpty else { return .nan }
        // Double's own parser rounds a long decimal correctly; accumulating digit by digit would not.
        let value = radix == 10 ? Double(String(digits)) ?? .nan
            : digits.reduce(0.0) { $0 * radix + Double($1.hexDigitValue ?? 0) }
        return sign * value
    }

    private static func isDecimalLiteral(_ text: String) -> Bool {
        var characters = Substring(text)
        if let first = characters.first, first == "+" || first == "-" { characters = characters.dropFirst() }
        var mantissaDigits = 0
        while let first = characters.first, first.isASCII, first.isNumber {
            mantissaDigits += 1
            characters = characters.dropFirst()
        }
        if characters.first == "." {
            characters = characters.dropFirst()
            while let first = characters.first, first.isASCII, first.isNumber {
                mantissaDigits += 1
                characters = characters.dropFirst()
            }
        }
        guard mantissaDigits > 0 else { return false }
        if let first = characters.first, first == "e" || first == "E" {
            characters = characters.dropFirst()
            if let sign = characters.first, sign == "+" || sign == "-" { characters = characters.dropFirst() }
            guard let digit = characters.first, digit.isASCII, digit.isNumber else { return false }
            while let first = characters.first, first.isASCII, first.isNumber { characters = characters.dropFirst() }
        }
        return characters.isEmpty
    }
}

extension String {
    /// The string without the leading and trailing whitespace JavaScript's `trim` removes.
    func trimmingJSWhitespace() -> String {
        // Nearly every value starts and ends with a printable ASCII character: nothing to trim, and no scalar's
        // Unicode properties to look up (a header value is trimmed on every request that asks for a fault).
        if let first = utf8.first, let last = utf8.last, String.isPrintableASCII(first), String.isPrintableASCII(last) {
            return self
        }
        // JavaScript's WhiteSpace and LineTerminator: not Swift's isWhitespace, which also strips U+0085.
        let isSpace: (Unicode.Scalar) -> Bool = { scalar in
            switch scalar.value {
            case 0x09...0x0D, 0x20, 0xA0, 0xFEFF, 0x2028, 0x2029: true
            default: scalar.properties.generalCategory == .spaceSeparator
            }
        }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !isSpace($0) }), let end = scalars.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(scalars[start...end])
    }

    /// An ASCII byte that is neither JavaScript whitespace nor a control character.
    private static func isPrintableASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}
