/// Reads into compact JSON text as `JSONWriter` writes it (valid, no whitespace) without parsing all of it.
///
/// A catalogue keeps each record as the bytes it serves; `select`, sorting and the indexes read one member of a
/// record, which is a scan of its text and a parse of that member's value alone.
package enum CompactJSON {
    /// Calls `body` with the range of each top-level member's key (inside its quotes, as written) and value, in
    /// order, until it returns false. `text` is a compact object.
    package static func forEachMember(
        of text: UnsafeBufferPointer<UInt8>, _ body: (_ key: Range<Int>, _ value: Range<Int>) -> Bool
    ) {
        guard text.count > 2, text[0] == UInt8(ascii: "{") else { return }
        var index = 1
        while index < text.count, text[index] == UInt8(ascii: "\"") {
            let keyEnd = endOfString(text, from: index)
            let valueStart = keyEnd + 1
            let valueEnd = endOfValue(text, from: valueStart)
            guard body(index + 1..<keyEnd - 1, valueStart..<valueEnd) else { return }
            guard valueEnd < text.count, text[valueEnd] == UInt8(ascii: ",") else { return }
            index = valueEnd + 1
        }
    }

    /// Every top-level member of the compact object `text`, in order.
    package static func members(of text: UnsafeBufferPointer<UInt8>) -> [JSONRecordScanner.Member] {
        var members: [JSONRecordScanner.Member] = []
        forEachMember(of: text) { key, value in
            members.append(JSONRecordScanner.Member(key: key, value: value))
            return true
        }
        return members
    }

    /// The range of the value of the last member named `key` (the one `JSON.parse` keeps), if any.
    package static func member(_ key: String, of text: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let written = writtenKey(key)
        var found: Range<Int>?
        forEachMember(of: text) { keyRange, valueRange in
            if UnsafeBufferPointer(rebasing: text[keyRange]).elementsEqual(written) { found = valueRange }
            return true
        }
        return found
    }

    /// A key as it appears between its quotes in compact text (escaped as the writer escapes it).
    package static func writtenKey(_ key: String) -> [UInt8] {
        let quoted = JSONWriter.encode(.string(key))
        return Array(quoted[1..<quoted.count - 1])
    }

    /// The value at `range` of `text`.
    package static func value(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> JSONValue? {
        if let string = string(in: text, range) { return .string(string) }
        return try? JSONParser.parse(Array(text[range]))
    }

    /// The string at `range` of `text`, or nil when that value is not a string. Unescaped without the parser when
    /// it holds no escape, which is nearly always.
    package static func string(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard range.count >= 2, text[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inner = UnsafeBufferPointer(rebasing: text[range.lowerBound + 1..<range.upperBound - 1])
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONParser.parse(Array(text[range])))?.stringValue
    }

    /// One past the closing quote of the string whose opening quote is at `start`.
    package static func endOfString(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return index
    }

    /// One past the last byte of the value that starts at `start`.
    package static func endOfValue(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        var depth = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\""):
                index = endOfString(text, from: index)
                if depth == 0 { return index }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // At depth 0 this closes the container around a number or literal: the scalar ended before it.
                if depth == 0 { return index }
                depth -= 1
                if depth == 0 { return index + 1 }
            case UInt8(ascii: ","):
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        return index
    }
}
