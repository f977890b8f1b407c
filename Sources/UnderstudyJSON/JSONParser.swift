/// A strict RFC 8259 parser that keeps key order and reports the line and column of any error.
///
/// Hand-written rather than Foundation's `JSONSerialization` because that loses key order and number text,
/// and its errors do not say where the problem is, which `--fixtures` needs to tell a user.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private let maximumDepth = 512
    /// While locating values, the path of the value being parsed and the offsets where targets began.
    private var locating: Locating?

    private struct Locating {
        let targets: Set<[JSONPathComponent]>
        var current: [JSONPathComponent] = []
        var found: [[JSONPathComponent]: Int] = [:]
    }

    /// Parses a complete JSON text.
    /// - Throws: `JSONParseError` naming the position and the problem.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Parses a complete JSON text given as a string.
    package static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// The 1-based line and column where the value at `path` starts, or nil when the text has no such value.
    package static func position(of path: [JSONPathComponent], in bytes: [UInt8]) -> (line: Int, column: Int)? {
        positions(of: [path], in: bytes)[path]
    }

    /// Where each of `paths` starts, found in one read (those the text does not have are absent).
    package static func positions(of paths: Set<[JSONPathComponent]>, in bytes: [UInt8]) -> [[JSONPathComponent]: (line: Int, column: Int)] {
        var parser = JSONParser(bytes: bytes)
        parser.locating = Locating(targets: paths)
        _ = try? parser.parseDocument()
        return (parser.locating?.found ?? [:]).mapValues { lineAndColumn(of: $0, in: bytes) }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is allowed before the text, as JSON.parse of a file read as UTF-8 allows.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("the document is empty") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeByte()) after the end of the document") }
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        if let locating, locating.targets.contains(locating.current) {
            self.locating?.found[locating.current] = index
            // Every target found: the rest of the text is not read.
            if self.locating?.found.count == locating.targets.count { throw error("located") }
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeByte()), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        var entries: [JSONObject.Entry] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(JSONObject(entries))
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a string key, found \(describeByte())") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the key \"\(key)\", found \(describeByte())") }
            index += 1
            skipWhitespace()
            locating?.current.append(.key(key))
            let value = try parseValue()
            locating?.current.removeLast()
            entries.append(JSONObject.Entry(key: key, value: value))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "}")) {
                index += 1
                depth -= 1
                return .object(JSONObject(entries))
            }
            throw error("expected ',' or '}' after an object entry, found \(describeByte())")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            locating?.current.append(.index(elements.count))
            elements.append(try parseValue())
            locating?.current.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "]")) {
                index += 1
                depth -= 1
                return .array(elements)
            }
            throw error("expected ',' or ']' after an array element, found \(describeByte())")
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        // Only a string with escapes is assembled in a scratch buffer (every escape adds at least one byte, so an
        // empty one means there were none); the rest are decoded from the input directly.
        var unescaped: [UInt8] = []
        var runStart = index
        // Whether any raw byte was outside ASCII: only then can the string be invalid UTF-8 (escapes are decoded
        // to valid UTF-8), so only then does it pay for generic validation.
        var sawNonASCII = false
        while true {
            let run = endOfPlainRun(from: index)
            index = run.end
            sawNonASCII = sawNonASCII || run.nonASCII
            guard index < bytes.count else {
                index = start
                throw error("unterminated string")
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) inside a string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                unescaped.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &unescaped)
                runStart = index
            }
        }
        let decoded: String?
        if !unescaped.isEmpty {
            unescaped.append(contentsOf: bytes[runStart..<index])
            decoded = unescaped.withUnsafeBufferPointer {
                sawNonASCII ? JSONParser.validUTF8($0) : String(decoding: $0, as: UTF8.self)
            }
        } else {
            // From a buffer pointer, which takes the standard library's contiguous fast path.
            let range = runStart..<index
            decoded = bytes.withUnsafeBufferPointer {
                let run = UnsafeBufferPointer(rebasing: $0[range])
                return sawNonASCII ? JSONParser.validUTF8(run) : String(decoding: run, as: UTF8.self)
            }
        }
        index += 1
        guard let decoded else {
            index = start
            throw error("string is not valid UTF-8")
        }
        return decoded
    }

    /// The index of the first quote, backslash or control byte at or after `start` (or the end): a tight loop
    /// over the buffer, as string contents are most of a fixture file.
    /// Where the run of bytes that need no attention ends, and whether it held any byte outside ASCII.
    private func endOfPlainRun(from start: Int) -> (end: Int, nonASCII: Bool) {
        bytes.withUnsafeBufferPointer { buffer in
            var position = start
            var seen: UInt8 = 0
            while position < buffer.count {
                let byte = buffer[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                seen |= byte
                position += 1
            }
            return (position, seen & 0x80 != 0)
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        index += 1
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""): utf8.append(0x22)
        case UInt8(ascii: "\\"): utf8.append(0x5C)
        case UInt8(ascii: "/"): utf8.append(0x2F)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("unpaired UTF-16 surrogate in \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            index -= 1
            throw error("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits, found \(describeByte())")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("numbers cannot have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits in its exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number \(text) is out of range")
        }
        return JSONNumber(parsedText: text, value: value)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw error("unexpected \(describeByte()), expected a value")
        }
        index += expected.count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func describeByte() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func error(_ reason: String) -> JSONParseError {
        let (line, column) = JSONParser.lineAndColumn(of: index, in: bytes)
        return JSONParseError(reason: reason, offset: index, line: line, column: column)
    }

    /// The 1-based line and column of a byte offset.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return (line, offset - lineStart + 1)
    }
}

extension JSONParser {
    /// The bytes as a string when they are well-formed UTF-8, else nil. `String(validating:as:)` does this in one
    /// pass but needs macOS 15 and iOS 18, above the package's floor (UnderstudyTesting, which an app may link, parses
    /// JSON with this): the standard library's UTF-8 decoder checks first, on every platform.
    static func validUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}
