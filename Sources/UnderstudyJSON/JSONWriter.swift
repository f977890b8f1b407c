/// Writes JSON the way `JSON.stringify` does: no whitespace, keys in order, only the escapes it uses.
package struct JSONWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    package init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The compact JSON text of a value.
    package static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    /// Appends a value.
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let flag): writeRaw(flag ? "true" : "false")
        case .number(let number): bytes.append(contentsOf: number.text.utf8)
        case .string(let string): write(string: string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (position, entry) in object.entries.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                write(string: entry.key)
                bytes.append(UInt8(ascii: ":"))
                write(entry.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends bytes that are already JSON.
    package mutating func writeRaw<Bytes: Sequence<UInt8>>(_ raw: Bytes) {
        bytes.append(contentsOf: raw)
    }

    /// Appends static JSON text.
    package mutating func writeRaw(_ raw: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: raw.utf8Start, count: raw.utf8CodeUnitCount))
    }

    /// Appends an integer.
    package mutating func write(int: Int) {
        bytes.append(contentsOf: String(int).utf8)
    }

    /// Appends a quoted, escaped string.
    package mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        // Runs of bytes that need no escape are copied whole: most strings are one run.
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                writeEscaped(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): writeRaw("\\\"")
        case UInt8(ascii: "\\"): writeRaw("\\\\")
        case 0x0A: writeRaw("\\n")
        case 0x0D: writeRaw("\\r")
        case 0x09: writeRaw("\\t")
        case 0x08: writeRaw("\\b")
        case 0x0C: writeRaw("\\f")
        default:
            let hex = Array("0123456789abcdef".utf8)
            writeRaw("\\u00")
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }
}

extension JSONValue {
    /// The compact JSON text of this value.
    package var jsonBytes: [UInt8] { JSONWriter.encode(self) }
}
