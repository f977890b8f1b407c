import Foundation
import UnderstudyJSON

/// Reads a parameter's text as its schema's type, the way its `style` and `explode` write it: `simple`
/// (`1,2,3`), `label` (`.1.2`), `matrix` (`;id=1`), `form` (repeated keys, or `1,2`), `spaceDelimited`,
/// `pipeDelimited` and `deepObject` (`filter[status]=open`); a `content` parameter is JSON. A value that is not of
/// its type is kept as the string it was, for validation to name.
struct ParameterDecoder {
    let graph: SchemaGraph

    /// The types a schema takes: its own, else those of everything it refers to or combines (every branch of a
    /// `oneOf`, OpenAI's `n: {anyOf: [{type: integer}, {type: "null"}]}`), with null where `nullable` says so.
    func types(_ schema: Int?) -> JSONTypes {
        guard let schema else { return .string }
        var seen: Set<Int> = []
        let found = collectTypes(schema, depth: 0, seen: &seen)
        return found.isEmpty || found == .null ? found.union(.string) : found
    }

    private func collectTypes(_ index: Int, depth: Int, seen: inout Set<Int>) -> JSONTypes {
        guard depth < 16, seen.insert(index).inserted else { return [] }
        let node = graph.nodes[index]
        var found: JSONTypes = node.nullable ? .null : []
        if let types = node.types { return found.union(types) }
        if !node.properties.isEmpty { return found.union(.object) }
        if node.items != nil { return found.union(.array) }
        for next in (node.ref.map { [$0] } ?? []) + node.allOf + node.oneOf + node.anyOf {
            found.formUnion(collectTypes(next, depth: depth + 1, seen: &seen))
        }
        return found
    }

    /// The item schema of an array the schema takes, through references and every `allOf`/`oneOf`/`anyOf` branch
    /// (OpenAI's `keywords: {anyOf: [{type: array, items: {type: string}}, {type: "null"}]}`).
    func itemSchema(_ schema: Int?) -> Int? {
        guard let schema else { return nil }
        var pending = [schema]
        var seen: Set<Int> = []
        while let index = pending.popLast(), seen.count < 64 {
            guard seen.insert(index).inserted else { continue }
            let node = graph.nodes[index]
            if let items = node.items { return items }
            pending += (node.ref.map { [$0] } ?? []) + node.allOf + node.oneOf + node.anyOf
        }
        return nil
    }

    /// The item schema of an array schema, and the property schemas of an object schema, through bare references.
    private func resolved(_ schema: Int?) -> SchemaNode? {
        guard var index = schema else { return nil }
        for _ in 0..<16 {
            let node = graph.nodes[index]
            guard let ref = node.ref, node.types == nil, node.properties.isEmpty else { return node }
            index = ref
        }
        return graph.nodes[index]
    }

    /// A scalar's text as the schema's type.
    func scalar(_ text: String, _ schema: Int?) -> JSONValue {
        let types = types(schema)
        if types.contains(.integer) || types.contains(.number), let number = JSONNumber.parsed(text), text.first != "+",
           !text.hasPrefix("."), !(text.count > 1 && text.hasPrefix("0") && !text.hasPrefix("0.")) {
            if types.contains(.number) || number.double.rounded() == number.double { return .number(number) }
        }
        if types.contains(.boolean), text == "true" || text == "false" { return .bool(text == "true") }
        if types.contains(.null), text.isEmpty || text == "null" { return .null }
        return .string(text)
    }

    /// The value of `parameter` in a path segment, a header or a cookie (one text).
    func value(_ parameter: OpenAPIParameter, text: String) -> JSONValue {
        if parameter.contentType != nil { return (try? JSONParser.parse(text)) ?? .string(text) }
        var text = text
        var separator: Character = ","
        switch parameter.style {
        case "label":
            guard text.hasPrefix(".") else { return .string(text) }
            text.removeFirst()
            if parameter.explode { separator = "." }
        case "matrix":
            let prefix = ";\(parameter.name)="
            if text.hasPrefix(prefix) { text = String(text.dropFirst(prefix.count)) } else if parameter.explode, text.hasPrefix(";") {
                text.removeFirst()
                separator = ";"
            }
        default:
            break
        }
        let types = types(parameter.schema)
        if types.contains(.array), !types.contains(.string) {
            let item = resolved(parameter.schema)?.items
            // An empty text is an empty array (`color=`, as OpenAPI's style examples write one).
            if text.isEmpty { return .array([]) }
            return .array(text.split(separator: separator, omittingEmptySubsequences: false).map {
                scalar(String($0).replacingOccurrences(of: ";\(parameter.name)=", with: ""), item)
            })
        }
        if types.contains(.object), !types.contains(.string) {
            return object(text.split(separator: separator, omittingEmptySubsequences: false).map(String.init),
                          exploded: parameter.explode, schema: parameter.schema)
        }
        return scalar(text, parameter.schema)
    }

    /// An object from `k,v,k2,v2` or `k=v,k2=v2`.
    private func object(_ parts: [String], exploded: Bool, schema: Int?) -> JSONValue {
        let node = resolved(schema)
        var entries: [JSONObject.Entry] = []
        func add(_ key: String, _ text: String) {
            let property = node?.properties.first { $0.name == key }?.schema ?? node?.additionalProperties
            entries.append(JSONObject.Entry(key: key, value: scalar(text, property)))
        }
        if exploded {
            for part in parts {
                let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                add(String(pieces[0]), pieces.count > 1 ? String(pieces[1]) : "")
            }
        } else {
            var index = 0
            while index + 1 < parts.count {
                add(parts[index], parts[index + 1])
                index += 2
            }
        }
        return .object(JSONObject(entries))
    }

    /// The value of a query parameter from every pair of the query; nil when it is absent.
    func queryValue(_ parameter: OpenAPIParameter, in pairs: [(name: String, value: String)]) -> JSONValue? {
        let types = types(parameter.schema)
        let node = resolved(parameter.schema)
        if parameter.contentType != nil {
            return pairs.first { $0.name == parameter.name }.map { (try? JSONParser.parse($0.value)) ?? .string($0.value) }
        }
        if parameter.style == "deepObject" {
            let prefix = parameter.name + "["
            let members = pairs.filter { $0.name.hasPrefix(prefix) && $0.name.hasSuffix("]") }
            guard !members.isEmpty else { return nil }
            return .object(JSONObject(members.map { pair in
                let key = String(pair.name.dropFirst(prefix.count).dropLast())
                return JSONObject.Entry(key: key, value: scalar(pair.value, node?.properties.first { $0.name == key }?.schema))
            }))
        }
        if types.contains(.object), !types.contains(.string), parameter.explode {
            // Each property is a parameter of its own name.
            let members = pairs.filter { pair in node?.properties.contains { $0.name == pair.name } ?? false }
            guard !members.isEmpty else { return nil }
            return .object(JSONObject(members.map { pair in
                JSONObject.Entry(key: pair.name, value: scalar(pair.value, node?.properties.first { $0.name == pair.name }?.schema))
            }))
        }
        let values = pairs.filter { $0.name == parameter.name }.map(\.value)
        guard let first = values.first else { return nil }
        if types.contains(.array), !types.contains(.string) {
            let item = node?.items
            if parameter.explode, parameter.style == "form" { return .array(values.map { scalar($0, item) }) }
            if first.isEmpty { return .array([]) }
            let separator: Character = switch parameter.style {
            case "spaceDelimited": " "
            case "pipeDelimited": "|"
            default: ","
            }
            return .array(first.split(separator: separator, omittingEmptySubsequences: false).map { scalar(String($0), item) })
        }
        if types.contains(.object), !types.contains(.string) {
            return object(first.split(separator: ",", omittingEmptySubsequences: false).map(String.init), exploded: false,
                          schema: parameter.schema)
        }
        return scalar(first, parameter.schema)
    }
}
