import UnderstudyJSON

/// Something wrong in a schema, found when it was compiled: where, and what.
package struct SchemaProblem: Sendable, Equatable {
    package var location: SchemaLocation
    package var message: String
    /// A 3.0 keyword read in a 3.1 schema: served as 3.0 reads it, and a warning rather than an error.
    package var tolerated = false
}

/// Compiles schemas into a `SchemaGraph`: each location once (a `$ref` to a location compiled already is its index,
/// so recursion costs nothing), references resolved through the registry's documents, resources and anchors, in
/// OpenAPI 3.0's dialect or JSON Schema 2020-12's.
package final class SchemaCompiler {
    package let registry: SchemaRegistry
    private(set) var nodes: [SchemaNode] = []
    private var byLocation: [SchemaLocation: Int] = [:]
    package private(set) var problems: [SchemaProblem] = []
    /// Whether any schema uses `unevaluatedProperties` or `unevaluatedItems`: only then does validation keep the
    /// annotations they read.
    var usesUnevaluated = false
    /// Whether `nullable: true` adds `null` in a 2020-12 schema too (a 3.1 document written with 3.0's keyword).
    var readsNullable = false
    /// Resources whose meta-schema leaves the validation vocabulary out.
    var withoutValidation: Set<String> = []
    /// The default dialect of schemas that do not declare one (`$schema`).
    private let dialect: SchemaDialect
    /// References resolved so far, to where they lead.
    var resolved: [ResolvedKey: SchemaLocation] = [:]

    /// A reference as written, where it was written.
    struct ResolvedKey: Hashable {
        var reference: String
        var base: String
        var dialect: SchemaDialect
    }

    package init(registry: SchemaRegistry, dialect: SchemaDialect) {
        self.registry = registry
        self.dialect = dialect
    }

    /// The graph of everything compiled so far, with every `$dynamicAnchor` the registry knows compiled too.
    package func makeGraph() -> SchemaGraph {
        var anchors: [String: Int] = [:]
        for anchor in registry.dynamicAnchors.sorted() {
            if let location = registry.anchors[anchor] { anchors[anchor] = compile(location) }
        }
        return SchemaGraph(nodes: nodes, usesUnevaluated: usesUnevaluated, dynamicAnchors: anchors)
    }

    /// The node for the schema at `location`, compiled (with everything it reaches) the first time.
    package func compile(_ location: SchemaLocation) -> Int {
        if let known = byLocation[location] { return known }
        let context = self.context(of: location)
        registry.index(location, base: context.base, dialect: context.dialect)
        return compile(location, base: context.base, resource: context.resource, dialect: context.dialect)
    }

    /// A schema given as a value, not at a location in a registered document (a generated one, a test's).
    package func compile(_ schema: JSONValue, uri: String) -> Int {
        registry.add(schema, uri: uri)
        return compile(SchemaLocation(document: URIReference.split(uri).base))
    }

    /// The base URI, resource and dialect `location` inherits: its document's, changed by every `$id` and `$schema`
    /// of the schemas around it (not its own, which compiling it reads).
    private func context(of location: SchemaLocation) -> (base: String, resource: String, dialect: SchemaDialect) {
        var base = location.document
        var dialect = self.dialect
        guard var current = registry.document(location.document), !registry.isPlain(location.document) else {
            return (base, base, dialect)
        }
        var prefix = SchemaLocation(document: location.document)
        for token in location.pointer {
            if case .object(let object) = current {
                if let declared = object["$schema"]?.stringValue, let named = SchemaDialect.named(declared) { dialect = named }
                if let id = dialect.idKeyword.flatMap({ object[$0]?.stringValue }) {
                    base = URIReference.split(URIReference.resolve(id, against: base)).base
                }
            }
            guard let next = registry.member(token, of: current, at: prefix) else { break }
            current = next
            prefix.pointer.append(token)
        }
        return (base, base, dialect)
    }

    func problem(_ location: SchemaLocation, _ message: String) {
        problems.append(SchemaProblem(location: location, message: message))
    }

    /// A keyword of OpenAPI 3.0's written in a 2020-12 schema, read as 3.0 reads it.
    func tolerated(_ location: SchemaLocation, _ keyword: String) {
        problems.append(SchemaProblem(location: location, message: "'\(keyword)' is a boolean, as in OpenAPI 3.0; JSON Schema 2020-12 wants a number (read as 3.0 reads it)", tolerated: true))
    }

    func compile(_ location: SchemaLocation, base: String, resource: String, dialect: SchemaDialect,
                 value given: JSONValue? = nil) -> Int {
        if let known = byLocation[location] { return known }
        let index = nodes.count
        byLocation[location] = index
        nodes.append(SchemaNode())
        var node = SchemaNode()
        node.location = location
        node.dialect = dialect
        node.resource = resource
        switch given ?? registry.value(at: location) {
        case .bool(let flag)?:
            node.boolean = flag
        case .object(let object)?:
            fill(&node, from: object, at: location, base: base, dialect: dialect)
            if withoutValidation.contains(node.resource) { node.validates = false }
        case nil:
            node.unresolved = "nothing at \(location)"
            problem(location, "no schema at \(location)")
        default:
            node.boolean = true
            problem(location, "a schema must be an object or a boolean")
        }
        nodes[index] = node
        return index
    }
}

/// The compiled schemas, read by the validator and the generator. A value: a document's graph is built once, at
/// load, and shared.
package struct SchemaGraph: Sendable {
    package let nodes: [SchemaNode]
    let usesUnevaluated: Bool
    /// `resource#name` of every compiled `$dynamicAnchor`, to its node.
    let dynamicAnchors: [String: Int]

    package subscript(index: Int) -> SchemaNode { nodes[index] }
}
