import Foundation
import UnderstudyJSON

/// One load: reads the root's structure into operations, resolving references and compiling schemas as it goes,
/// and collects findings.
final class DocumentBuilder {
    let files: DocumentFiles
    let root: String
    let options: DocumentLoader.Options
    let registry: SchemaRegistry
    let compiler: SchemaCompiler
    /// What the load found, placed in their files when it ends.
    private var notes: [DocumentFinding.Note] = []
    let version: String
    /// Examples to check once every schema is compiled: the value, its schema, and where it is.
    var examples: [(value: JSONValue, schema: Int, location: SchemaLocation)] = []

    init(files: DocumentFiles, root: String, options: DocumentLoader.Options) {
        self.files = files
        self.root = root
        self.options = options
        registry = SchemaRegistry(fetch: { [files] uri in files.tree(uri) })
        let tree = files.tree(root) ?? .null
        version = tree["openapi"]?.stringValue ?? ""
        var dialect: SchemaDialect = version.hasPrefix("3.0") ? .openAPI30 : .draft2020
        if let declared = tree["jsonSchemaDialect"]?.stringValue, let named = SchemaDialect.named(declared) { dialect = named }
        compiler = SchemaCompiler(registry: registry, dialect: dialect)
        compiler.readsNullable = options.tolerates30Keywords
    }

    func error(_ location: SchemaLocation, _ message: String) {
        notes.append(.init(severity: .error, location: location, message: message))
    }

    func warning(_ location: SchemaLocation, _ message: String) {
        notes.append(.init(severity: .warning, location: location, message: message))
    }

    func build() throws(DocumentLoadError) -> OpenAPIDocument {
        let start = SchemaLocation(document: root)
        guard case .object(let document)? = files.tree(root) else {
            throw DocumentLoadError(files.placed([.init(severity: .error, location: start, message: "an OpenAPI document is an object")]))
        }
        if document["swagger"] != nil {
            error(start.appending("swagger"), "Swagger 2.0 is not served: convert the document to OpenAPI 3 first")
        } else if !version.hasPrefix("3.") {
            error(start.appending("openapi"), version.isEmpty ? "no 'openapi' version: is this an OpenAPI 3 document?"
                                                              : "OpenAPI \(version) is not served: 3.0, 3.1 and 3.2 are")
        }
        guard notes.isEmpty else { throw DocumentLoadError(files.placed(notes)) }
        let schemes = securitySchemes(document, at: start)
        let security = requirements(document["security"]) ?? []
        var operations: [OpenAPIOperation] = []
        if case .object(let paths)? = document["paths"] {
            for entry in paths.entries {
                operations += pathOperations(entry.key, at: start.appending("paths", entry.key), security: security)
            }
        } else if document["paths"] != nil {
            error(start.appending("paths"), "'paths' must be an object")
        }
        compileComponentSchemas(document, at: start)
        uniqueIDs(&operations)
        let graph = compiler.makeGraph()
        for problem in compiler.problems {
            if problem.tolerated { warning(problem.location, problem.message) } else { error(problem.location, problem.message) }
        }
        checkExamples(graph)
        let findings = files.placed(notes)
        if findings.contains(where: { $0.severity == .error }) { throw DocumentLoadError(findings) }
        let info = document["info"]
        return OpenAPIDocument(version: version, title: info?["title"]?.stringValue ?? "", basePaths: basePaths(document),
                               operations: operations, securitySchemes: schemes, graph: graph, findings: findings,
                               fileCount: files.count)
    }

    /// The object at `location`, following `$ref`s (across files) to the object they name; nil, with an error
    /// where the reference is, when one leads nowhere or round in a circle.
    func resolved(_ location: SchemaLocation) -> (object: JSONObject, location: SchemaLocation)? {
        var current = location
        var seen: Set<SchemaLocation> = []
        while true {
            guard let value = registry.value(at: current) else {
                error(current, "nothing at \(current)")
                return nil
            }
            guard case .object(let object) = value else { return (JSONObject(), current) }
            guard let reference = object["$ref"]?.stringValue else { return (object, current) }
            guard seen.insert(current).inserted else {
                error(location.appending("$ref"), "the $ref '\(reference)' leads round in a circle")
                return nil
            }
            let (uri, fragment) = URIReference.split(registry.resolve(reference, against: current.document))
            guard files.tree(uri) != nil else {
                error(current.appending("$ref"), "unresolved $ref '\(reference)': \(files.failures[uri] ?? "no document at \(uri)")")
                return nil
            }
            guard let tokens = JSONPointer.tokens(fragment ?? ""), registry.value(at: SchemaLocation(document: uri, pointer: tokens)) != nil else {
                error(current.appending("$ref"), "unresolved $ref '\(reference)': \(URIReference.split(uri).base) has nothing at #\(fragment ?? "")")
                return nil
            }
            current = SchemaLocation(document: uri, pointer: tokens)
        }
    }

    /// The schema at `location` (a `$ref` inside it is the compiler's to follow), compiled.
    func schema(at location: SchemaLocation) -> Int {
        compiler.compile(location)
    }

    /// The path parts of the servers' URLs: `https://api.example.com/v1` is `/v1`; variables take their defaults.
    private func basePaths(_ document: JSONObject) -> [String] {
        guard case .array(let servers)? = document["servers"] else { return [] }
        var paths: [String] = []
        for server in servers {
            guard var url = server["url"]?.stringValue else { continue }
            if case .object(let variables)? = server["variables"] {
                for variable in variables.entries {
                    url = url.replacing("{\(variable.key)}", with: variable.value["default"]?.stringValue ?? "")
                }
            }
            if let scheme = url.range(of: "://") {
                let rest = url[scheme.upperBound...]
                url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
            }
            while url.hasSuffix("/") { url.removeLast() }
            if !url.isEmpty, url.hasPrefix("/"), !paths.contains(url) { paths.append(url) }
        }
        return paths
    }

    private func securitySchemes(_ document: JSONObject, at start: SchemaLocation) -> [String: OpenAPISecurityScheme] {
        guard case .object(let schemes)? = document["components"]?["securitySchemes"] else { return [:] }
        var found: [String: OpenAPISecurityScheme] = [:]
        for entry in schemes.entries {
            guard let (scheme, _) = resolved(start.appending("components", "securitySchemes", entry.key)) else { continue }
            let kind: OpenAPISecurityScheme.Kind? = switch scheme["type"]?.stringValue {
            case "apiKey": .apiKey(name: scheme["name"]?.stringValue ?? "", location: scheme["in"]?.stringValue ?? "header")
            case "http": .http(scheme: (scheme["scheme"]?.stringValue ?? "").lowercased())
            case "oauth2": .oauth2
            case "openIdConnect": .openIdConnect
            case "mutualTLS": .mutualTLS
            default: nil
            }
            if let kind { found[entry.key] = OpenAPISecurityScheme(kind: kind) }
        }
        return found
    }

    /// `security`: a list of requirements, any of which is enough; each names schemes that are all needed.
    func requirements(_ value: JSONValue?) -> [[(scheme: String, scopes: [String])]]? {
        guard case .array(let list)? = value else { return nil }
        return list.map { requirement in
            guard case .object(let schemes) = requirement else { return [] }
            return schemes.entries.map { ($0.key, ($0.value.arrayValue ?? []).compactMap(\.stringValue)) }
        }
    }

    /// Compiles every schema under `components/schemas`, so a broken one is reported even when no operation uses it.
    private func compileComponentSchemas(_ document: JSONObject, at start: SchemaLocation) {
        guard case .object(let schemas)? = document["components"]?["schemas"] else { return }
        for entry in schemas.entries { _ = schema(at: start.appending("components", "schemas", entry.key)) }
    }

    /// Operation ids as the admin API names them: unique (a repeated `operationId` gets `#2`, and a warning).
    private func uniqueIDs(_ operations: inout [OpenAPIOperation]) {
        var seen: [String: Int] = [:]
        for index in operations.indices {
            let id = operations[index].id
            let count = (seen[id] ?? 0) + 1
            seen[id] = count
            if count > 1 {
                warning(operations[index].location.appending("operationId"), "operationId '\(id)' is used more than once")
                operations[index].id = "\(id)#\(count)"
            }
        }
    }

    /// Every example against its schema: a warning (an error with `examplesMustMatch`) naming the first violations.
    private func checkExamples(_ graph: SchemaGraph) {
        let validator = SchemaValidator(graph: graph)
        for example in examples {
            let violations = validator.violations(of: example.value, against: example.schema)
            guard !violations.isEmpty else { continue }
            let message = "the example does not match its schema: " + violations.prefix(3).map(\.description).joined(separator: "; ")
            if options.examplesMustMatch { error(example.location, message) } else { warning(example.location, message) }
        }
    }
}
