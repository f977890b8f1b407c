import UnderstudyJSON

/// Writes JSON for people: two-space indents, one member or element per line, keys in the order given, and short
/// arrays of scalars on one line (a header `["Content-Type", "application/json"]`, a query item), so a diff shows
/// one change as one line.
struct PrettyJSON {
    private var writer = JSONWriter(reservingCapacity: 1024)
    private static let inlineWidth = 100

    /// The text of `value`, ending with a newline.
    static func encode(_ value: JSONValue) -> [UInt8] {
        var pretty = PrettyJSON()
        pretty.write(value, indent: 0)
        pretty.writer.writeRaw("\n")
        return pretty.writer.bytes
    }

    private mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .array(let elements) where elements.isEmpty:
            writer.writeRaw("[]")
        case .object(let object) where object.entries.isEmpty:
            writer.writeRaw("{}")
        case .array(let elements):
            if let inline = Self.inline(elements) {
                writer.writeRaw(inline)
                return
            }
            writer.writeRaw("[")
            for (position, element) in elements.enumerated() {
                writer.writeRaw(position == 0 ? "\n" : ",\n")
                pad(indent + 2)
                write(element, indent: indent + 2)
            }
            writer.writeRaw("\n")
            pad(indent)
            writer.writeRaw("]")
        case .object(let object):
            writer.writeRaw("{")
            for (position, entry) in object.entries.enumerated() {
                writer.writeRaw(position == 0 ? "\n" : ",\n")
                pad(indent + 2)
                writer.write(string: entry.key)
                writer.writeRaw(": ")
                write(entry.value, indent: indent + 2)
            }
            writer.writeRaw("\n")
            pad(indent)
            writer.writeRaw("}")
        default:
            writer.write(value)
        }
    }

    /// Indents are written from this buffer a slice at a time. `repeatElement` went through `JSONWriter.writeRaw`
    /// unspecialised (a generic of another module), with a generic metadata lookup for every space: half of a
    /// recording proxy's CPU.
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 128)

    private mutating func pad(_ count: Int) {
        var left = count
        while left > 0 {
            let step = min(left, Self.spaces.count)
            writer.writeRaw(Self.spaces[..<step])
            left -= step
        }
    }

    /// `[a, b]` when every element is a scalar and the line stays short; nil otherwise.
    private static func inline(_ elements: [JSONValue]) -> [UInt8]? {
        var line: [UInt8] = [UInt8(ascii: "[")]
        for (position, element) in elements.enumerated() {
            switch element {
            case .array, .object: return nil
            default: break
            }
            if position > 0 { line += [UInt8(ascii: ","), UInt8(ascii: " ")] }
            line += JSONWriter.encode(element)
            if line.count > inlineWidth { return nil }
        }
        return line + [UInt8(ascii: "]")]
    }
}
