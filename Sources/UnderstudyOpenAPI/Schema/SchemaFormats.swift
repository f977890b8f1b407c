import UnderstudyJSON

/// The formats a mock checks when asked to (`SchemaValidator.assertsFormats`): those OpenAPI documents lean on,
/// read as their RFCs write them. An unknown format is an annotation and never fails.
enum SchemaFormats {
    /// Whether a format bounds the numbers a request or answer may carry (`int32`, `int64`) rather than describing
    /// a string. `float` and `double` name a precision, not a range: a larger number is still one a reader takes
    /// (schemathesis sends 6e59 for a float, openapi-schema-validator accepts it), so neither is checked.
    static func isRange(_ format: String) -> Bool {
        format == "int32" || format == "int64"
    }

    static func problem(_ number: JSONNumber, format: String) -> String? {
        let value = number.double
        switch format {
        case "int32":
            return value.rounded() == value && value >= -2_147_483_648 && value <= 2_147_483_647 ? nil : "must be an int32"
        case "int64":
            // Read from the number's digits: a Double cannot tell 2^63 from 2^63 - 1.
            let digits = number.text.hasPrefix("-") ? number.text.dropFirst() : Substring(number.text)
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return Int64(number.text) == nil ? "must be an int64" : nil
            }
            return value.rounded() == value && value >= -9.223372036854775808e18 && value < 9.223372036854775807e18 ? nil : "must be an int64"
        default:
            return nil
        }
    }

    static func problem(_ text: String, format: String) -> String? {
        let valid: Bool = switch format {
        case "date-time": isDateTime(text)
        case "date": isDate(text)
        case "time": isTime(text)
        case "email": isEmail(text)
        case "uuid": isUUID(text)
        case "uri": isURI(text)
        case "ipv4": isIPv4(text)
        case "ipv6": text.contains(":") && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        case "hostname": isHostname(text)
        case "byte": isBase64(text)
        default: true
        }
        return valid ? nil : "must match format \"\(format)\""
    }

    private static func digits(_ text: Substring, _ count: Int) -> Int? {
        guard text.count == count, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        return Int(text)
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = digits(parts[0], 4), let month = digits(parts[1], 2), let day = digits(parts[2], 2),
              (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    static func isTime(_ text: String) -> Bool {
        var rest = Substring(text)
        guard rest.count >= 9 else { return false }
        let clock = rest.prefix(8)
        rest = rest.dropFirst(8)
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = digits(parts[0], 2), let minute = digits(parts[1], 2), let second = digits(parts[2], 2),
              hour < 24, minute < 60, second <= 60 else { return false }
        if rest.first == "." {
            rest = rest.dropFirst()
            let fraction = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        if rest == "Z" || rest == "z" { return true }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return false }
        let offset = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard offset.count == 2, let hours = digits(offset[0], 2), let minutes = digits(offset[1], 2) else { return false }
        return hours < 24 && minutes < 60
    }

    static func isDateTime(_ text: String) -> Bool {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
        return isDate(String(text[..<separator])) && isTime(String(text[text.index(after: separator)...]))
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains(" ")
            && !parts[0].hasPrefix(".") && !parts[0].hasSuffix(".") && !parts[0].contains("..")
    }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
              text[..<colon].first?.isLetter == true,
              text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return false }
        return !text.contains(where: { $0 == " " || $0 == "\\" || $0 == "\"" || $0 == "<" || $0 == ">" })
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part) else { return false }
            return value <= 255 && (part.count == 1 || part.first != "0")
        }
    }

    static func isHostname(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    static func isBase64(_ text: String) -> Bool {
        guard text.count % 4 == 0 else { return false }
        let body = text.drop(while: { _ in false })
        let padding = body.reversed().prefix(while: { $0 == "=" }).count
        return padding <= 2 && body.dropLast(padding).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }
    }
}
