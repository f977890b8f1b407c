import UnderstudyJSON

/// A value written as a media type: JSON for JSON types (and anything not otherwise known), the text of a string for
/// text types, events for `text/event-stream`, a plain XML tree for XML.
enum Serialization {
    static func bytes(_ value: JSONValue, as type: String, itemSchema: Bool = false) -> [UInt8] {
        let essence = MediaTypes.essence(type)
        if essence == "text/event-stream" { return events(value, oneEach: itemSchema) }
        if essence.hasSuffix("/xml") || essence.hasSuffix("+xml") { return Array(xml(value, name: "root").utf8) }
        if case .string(let text) = value, !MediaTypes.isJSON(essence) { return Array(text.utf8) }
        return JSONWriter.encode(value)
    }

    /// An event stream: each item of an array (an `itemSchema`'s items) or the value alone as an event's `data`,
    /// named by its `event` or `type` member when it has one.
    static func events(_ value: JSONValue, oneEach: Bool) -> [UInt8] {
        let items: [JSONValue] = if oneEach, case .array(let list) = value { list } else { [value] }
        var text = ""
        for item in items {
            if case .object(let object) = item, let name = (object["event"] ?? object["type"])?.stringValue, !name.contains("\n") {
                text += "event: \(name)\n"
            }
            let data: String = if case .string(let string) = item { string } else { String(decoding: JSONWriter.encode(item), as: UTF8.self) }
            for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
            text += "\n"
        }
        return Array(text.utf8)
    }

    /// A header value: a scalar's text, an array's items joined by commas, an object's `key,value` pairs.
    static func headerText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text.filter { $0 != "\r" && $0 != "\n" }
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        case .array(let items): items.map(headerText).joined(separator: ",")
        case .object(let object): object.entries.map { "\($0.key),\(headerText($0.value))" }.joined(separator: ",")
        }
    }

    private static func xml(_ value: JSONValue, name: String) -> String {
        let tag = name.allSatisfy { $0.isLetter || $0.isNumber || "_-.".contains($0) } && !name.isEmpty ? name : "item"
        switch value {
        case .object(let object): return "<\(tag)>" + object.entries.map { xml($0.value, name: $0.key) }.joined() + "</\(tag)>"
        case .array(let items): return items.map { xml($0, name: tag) }.joined()
        case .null: return "<\(tag)/>"
        default:
            let text = headerText(value).replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            return "<\(tag)>\(text)</\(tag)>"
        }
    }
}
