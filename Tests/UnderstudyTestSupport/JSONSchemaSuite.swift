import Foundation
import UnderstudyJSON
import UnderstudyTestSupport
import UnderstudyOpenAPI

/// JSON-Schema-Test-Suite (shared/conformance/json-schema-test-suite): its cases, and its remotes served from files
/// as the suite's README asks (`http://localhost:1234/…` is `remotes/…`).
package enum JSONSchemaSuite {
    package struct Case {
        package let file: String
        package let description: String
        package let schema: JSONValue
        package let tests: [(description: String, data: JSONValue, valid: Bool)]
    }

    /// The cases of `tests/<draft>/*.json` (not `optional/`), in file order.
    package static func cases(_ draft: String) throws -> [Case] {
        let folder = SharedData.conformance("json-schema-test-suite/tests/\(draft)")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw SharedDataMissing(path: folder.path)
        }
        var cases: [Case] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            guard case .array(let entries) = try JSONParser.parse(try SharedData.bytes(folder.appendingPathComponent(name))) else { continue }
            for entry in entries {
                guard let schema = entry["schema"], case .array(let tests)? = entry["tests"] else { continue }
                cases.append(Case(file: name, description: entry["description"]?.stringValue ?? "", schema: schema,
                                  tests: tests.map { ($0["description"]?.stringValue ?? "", $0["data"] ?? .null, $0["valid"] == .bool(true)) }))
            }
        }
        return cases
    }

    /// Reads a remote of the suite from its file; nil for any other URI.
    package static func remote(_ uri: String) -> JSONValue? {
        let prefix = "http://localhost:1234/"
        guard uri.hasPrefix(prefix) else { return nil }
        let file = SharedData.conformance("json-schema-test-suite/remotes/" + uri.dropFirst(prefix.count))
        return (try? SharedData.bytes(file)).flatMap { try? JSONParser.parse($0) }
    }

    /// The keywords a schema uses anywhere in it (its subschemas' too), for telling a draft-4 case that uses only
    /// what OpenAPI 3.0's Schema Object has.
    package static func keywords(of schema: JSONValue) -> Set<String> {
        guard case .object(let object) = schema else { return [] }
        var found = Set(object.keys)
        for (keyword, shape) in SchemaRegistry.subschemaKeywords {
            guard let value = object[keyword] else { continue }
            switch (shape, value) {
            case (.one, _), (.oneOrMany, .object): found.formUnion(keywords(of: value))
            case (.many, .array(let items)), (.oneOrMany, .array(let items)):
                for item in items { found.formUnion(keywords(of: item)) }
                if keyword == "items" { found.insert("items[]") }
            case (.named, .object(let members)):
                for member in members.entries { found.formUnion(keywords(of: member.value)) }
            default: break
            }
        }
        return found
    }

    /// OpenAPI 3.0's Schema Object keywords that draft 4 also has (`items` only as one schema).
    package static let openAPI30Keywords: Set<String> = [
        "title", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength",
        "pattern", "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required", "enum", "type",
        "allOf", "oneOf", "anyOf", "not", "items", "properties", "additionalProperties", "description", "format",
        "default",
    ]
}
