/// Finds where a value sits in JSON text, without parsing it into objects: `JSONSerialization` does not keep key
/// order, and a replayed body should reach the client as the server writes it.
enum JSONSpan {
    /// The bytes of the value reached through object members `keys` from the top, as written; nil when a key is
    /// missing or the text is not well-formed enough to walk.
    static func value(at keys: [String], in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var start = skipSpace(bytes, 0)
        var end = valueEnd(bytes, start)
        for key in keys {
            guard let found = member(key, in: bytes, object: start) else { return nil }
            (start, end) = found
        }
        return end.map { bytes[start..<$0] }
    }

    /// The start and end of member `key`'s value in the object that opens at `index`.
    private static func member(_ key: String, in bytes: [UInt8], object index: Int) -> (Int, Int?)? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        var index = skipSpace(bytes, index + 1)
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            guard let keyEnd = stringEnd(bytes, index) else { return nil }
            // Case keys are plain ASCII; an escaped key would simply not match.
            let name = String(decoding: bytes[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            index = skipSpace(bytes, keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(bytes, index + 1)
            guard let valueEnd = valueEnd(bytes, valueStart) else { return nil }
            if name == key { return (valueStart, valueEnd) }
            index = skipSpace(bytes, valueEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
            index = skipSpace(bytes, index + 1)
        }
        return nil
    }

    /// Where the value that starts at `index` ends (one past its last byte).
    private static func valueEnd(_ bytes: [UInt8], _ index: Int) -> Int? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, index)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var cursor = index
            while cursor < bytes.count {
                switch bytes[cursor] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, cursor) else { return nil }
                    cursor = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return cursor + 1 }
                default: break
                }
                cursor += 1
            }
            return nil
        default:
            var cursor = index
            while cursor < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[cursor]) {
                cursor += 1
            }
            return cursor
        }
    }

    /// One past the closing quote of the string that opens at `index`.
    private static func stringEnd(_ bytes: [UInt8], _ index: Int) -> Int? {
        var cursor = index + 1
        while cursor < bytes.count {
            if bytes[cursor] == UInt8(ascii: "\\") { cursor += 2; continue }
            if bytes[cursor] == UInt8(ascii: "\"") { return cursor + 1 }
            cursor += 1
        }
        return nil
    }

    private static func skipSpace(_ bytes: [UInt8], _ index: Int) -> Int {
        var index = index
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        return index
    }
}
