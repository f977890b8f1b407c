import UnderstudyJSON

/// Where a value is: a document (by its URI, without a fragment) and a JSON pointer into it.
package struct SchemaLocation: Hashable, Sendable, CustomStringConvertible {
    package var document: String
    package var pointer: [String]

    package init(document: String, pointer: [String] = []) {
        self.document = document
        self.pointer = pointer
    }

    /// A location deeper in the same document.
    package func appending(_ tokens: String...) -> SchemaLocation {
        SchemaLocation(document: document, pointer: pointer + tokens)
    }

    /// Hashes the pointer and the document's length only: a graph's locations are mostly in one or a few documents
    /// with long file URIs, hashed thousands of times at load; equal locations still hash equal.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(document.utf8.count)
        hasher.combine(pointer)
    }

    /// The name of a schema directly under `components/schemas`, which a discriminator without a mapping uses.
    package var componentName: String? {
        pointer.count == 3 && pointer[0] == "components" && pointer[1] == "schemas" ? pointer[2] : nil
    }

    /// `document#/json/pointer`.
    package var description: String { document + "#" + JSONPointer.text(pointer) }
}

/// The documents a graph's schemas come from, by URI, and the resources (`$id`) and anchors (`$anchor`,
/// `$dynamicAnchor`) found in them. A reference to a document not loaded yet asks `fetch` (a file beside the root,
/// or a remote a caller maps to files); nothing is fetched from the network.
package final class SchemaRegistry {
    private(set) var documents: [String: JSONValue] = [:]
    /// Loads the document at a URI (without fragment) that is not registered yet; nil when there is none.
    private let fetch: (String) -> JSONValue?
    /// Every URI a `$id` gives, to its location.
    private(set) var resources: [String: SchemaLocation] = [:]
    /// `uri#name` of every `$anchor` and `$dynamicAnchor`, to its location.
    private(set) var anchors: [String: SchemaLocation] = [:]
    /// `uri#name` of the `$dynamicAnchor`s alone.
    private(set) var dynamicAnchors: Set<String> = []
    /// Locations already indexed, so a document reached twice is walked once.
    private var indexed: Set<SchemaLocation> = []
    private var resolvedURIs: [ResolvedURIKey: String] = [:]
    /// Documents without identifiers, anchors or dialects of their own (`isPlain`).
    private var plain: Set<String> = []
    /// Large objects' members by name, built the first time a pointer goes through one.
    private var tables: [SchemaLocation: [String: JSONValue]] = [:]

    package init(fetch: @escaping (String) -> JSONValue? = { _ in nil }) {
        self.fetch = fetch
    }

    /// `reference` resolved against `base` (RFC 3986): remembered, as a spec's files name the same few files from
    /// the same places thousands of times (DigitalOcean's `../../shared/...`).
    func resolve(_ reference: String, against base: String) -> String {
        let key = ResolvedURIKey(reference: reference, base: base)
        if let known = resolvedURIs[key] { return known }
        let resolved = URIReference.resolve(reference, against: base)
        resolvedURIs[key] = resolved
        return resolved
    }

    private struct ResolvedURIKey: Hashable {
        var reference: String
        var base: String
    }

    /// Registers a document under `uri`.
    package func add(_ document: JSONValue, uri: String) {
        let base = URIReference.split(uri).base
        documents[base] = document
        notePlain(document, uri: base)
    }

    /// The document at `uri` (no fragment), fetched the first time.
    package func document(_ uri: String) -> JSONValue? {
        if let known = documents[uri] { return known }
        guard let fetched = fetch(uri) else { return nil }
        documents[uri] = fetched
        notePlain(fetched, uri: uri)
        return fetched
    }

    /// Whether the document at `uri` has no `$id`, `$schema`, `$anchor` or `$dynamicAnchor` anywhere: then every
    /// schema in it has the document's base URI and the default dialect, and indexing it finds nothing.
    func isPlain(_ uri: String) -> Bool { plain.contains(uri) }

    private func notePlain(_ document: JSONValue, uri: String) {
        var stack = [document]
        while let value = stack.popLast() {
            switch value {
            case .object(let object):
                for entry in object.entries {
                    if entry.key.utf8.first == UInt8(ascii: "$"),
                       ["$id", "$schema", "$anchor", "$dynamicAnchor"].contains(entry.key) {
                        plain.remove(uri)
                        return
                    }
                    stack.append(entry.value)
                }
            case .array(let items):
                stack.append(contentsOf: items)
            default:
                break
            }
        }
        plain.insert(uri)
    }

    /// The value at a location.
    package func value(at location: SchemaLocation) -> JSONValue? {
        guard var current = document(location.document) else { return nil }
        var prefix = SchemaLocation(document: location.document)
        for token in location.pointer {
            guard let next = member(token, of: current, at: prefix) else { return nil }
            current = next
            prefix.pointer.append(token)
        }
        return current
    }

    /// The member `token` of `value`, which is at `location`: a large object (components/schemas holds hundreds) is
    /// looked into by a table built once, not by a scan per reference.
    func member(_ token: String, of value: JSONValue, at location: SchemaLocation) -> JSONValue? {
        if case .object(let object) = value, object.entries.count > 16 { return members(of: object, at: location)[token] }
        return JSONPointer.member(token, of: value)
    }

    /// The members of the large object at `location`, by name (the last of a repeated name, as `JSONObject` reads).
    private func members(of object: JSONObject, at location: SchemaLocation) -> [String: JSONValue] {
        if let known = tables[location] { return known }
        var table: [String: JSONValue] = [:]
        table.reserveCapacity(object.entries.count)
        for entry in object.entries { table[entry.key] = entry.value }
        tables[location] = table
        return table
    }

    /// Records the `$id`s and anchors of the schema at `location` and of its subschemas, whose base URI is `base`.
    func index(_ location: SchemaLocation, base: String, dialect: SchemaDialect) {
        guard !plain.contains(location.document), !indexed.contains(location), let schema = value(at: location) else { return }
        indexed.insert(location)
        guard case .object(let object) = schema else { return }
        var base = base
        var dialect = dialect
        if let declared = object["$schema"]?.stringValue, let named = SchemaDialect.named(declared) { dialect = named }
        if let id = dialect.idKeyword.flatMap({ object[$0]?.stringValue }) {
            base = URIReference.split(URIReference.resolve(id, against: base)).base
            resources[base] = location
        }
        if dialect == .draft2020 {
            if let anchor = object["$anchor"]?.stringValue { anchors[base + "#" + anchor] = location }
            if let anchor = object["$dynamicAnchor"]?.stringValue {
                anchors[base + "#" + anchor] = location
                dynamicAnchors.insert(base + "#" + anchor)
            }
        }
        for (keyword, shape) in SchemaRegistry.subschemaKeywords {
            guard let value = object[keyword] else { continue }
            switch (shape, value) {
            case (.one, _), (.oneOrMany, .object), (.oneOrMany, .bool):
                index(location.appending(keyword), base: base, dialect: dialect)
            case (.many, .array(let items)), (.oneOrMany, .array(let items)):
                for offset in items.indices { index(location.appending(keyword, String(offset)), base: base, dialect: dialect) }
            case (.named, .object(let members)):
                for member in members.entries where member.value.isSchemaShaped {
                    index(location.appending(keyword, member.key), base: base, dialect: dialect)
                }
            default:
                break
            }
        }
    }

    /// How a keyword holds subschemas.
    package enum Shape { case one, many, oneOrMany, named }

    /// Every keyword with subschemas, in either dialect.
    package static let subschemaKeywords: [(String, Shape)] = [
        ("additionalProperties", .one), ("additionalItems", .one), ("contains", .one), ("propertyNames", .one),
        ("not", .one), ("if", .one), ("then", .one), ("else", .one), ("unevaluatedItems", .one),
        ("unevaluatedProperties", .one), ("items", .oneOrMany), ("allOf", .many), ("anyOf", .many), ("oneOf", .many),
        ("prefixItems", .many), ("properties", .named), ("patternProperties", .named), ("$defs", .named),
        ("definitions", .named), ("dependentSchemas", .named), ("dependencies", .named),
    ]
}

extension JSONValue {
    /// Whether the value can be a schema: an object, or `true` or `false`.
    var isSchemaShaped: Bool {
        switch self {
        case .object, .bool: true
        default: false
        }
    }
}
