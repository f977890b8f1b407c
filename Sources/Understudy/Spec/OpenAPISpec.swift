import UnderstudyJSON
import UnderstudyOpenAPI
import UnderstudyYAML

/// An OpenAPI 3.0, 3.1 or 3.2 document to serve as a fake backend (`understudy --spec openapi.yaml`): examples,
/// seeded data, validation and state, with every fault Understudy injects.
///
/// Load it once and give it to ``UnderstudyServer/Configuration/spec``:
///
/// ```swift
/// var configuration = UnderstudyServer.Configuration()
/// configuration.spec = try OpenAPISpec(contentsOf: "openapi.yaml")
/// let server = try UnderstudyServer.start(configuration)
/// ```
public struct OpenAPISpec: Sendable {
    /// How a document is served.
    public struct Options: Sendable {
        /// Whether requests are checked against the document (401, 415, 422…); off answers whatever is sent.
        public var validatesRequests = true
        /// Whether the collections the document implies keep what is written to them, per session.
        public var stateful = true
        /// Whether bodies are generated from schemas (seeded) rather than taken from examples, unless a request's
        /// `Prefer: dynamic=` says otherwise.
        public var dynamic = false
        /// Whether an example that contradicts its schema stops the load (it is a warning otherwise).
        public var examplesMustMatch = false
        /// Whether a 3.1 document's OpenAPI 3.0 `nullable: true` is read as 3.0 reads it (`--spec-tolerate
        /// 3.0-keywords`): real documents that moved to 3.1 often kept it (OpenAI's has 111).
        public var tolerates30Keywords = false

        // With an upstream: the document holds the real API to it (`--upstream URL --spec FILE`).

        /// Whether an exchange that breaks the document is refused (`--spec-errors`): a request with a violation
        /// gets a 422 before anything is forwarded, a reply with one becomes a 502, both problem+json naming the
        /// violations. Off, every exchange is forwarded unchanged and its violations only reported.
        public var failsOnViolations = false
        /// Whether an operation the upstream does not implement yet (it answers 501, or a 404 the operation does
        /// not document) is answered from the document instead, marked `X-Understudy-Mocked: openapi`.
        public var mocksMissingOperations = true
        /// Paths answered from the document and never forwarded (`--spec-mock-missing PATH`), as globs such as
        /// `/v2/orders*`: endpoints the backend has not shipped.
        public var mockedPaths: [String] = []

        /// The defaults: validation and state on, examples first.
        public init() {}
    }

    /// The file it was loaded from (or a name given to a document in memory).
    public let path: String
    /// How it is served.
    public var options: Options
    let document: OpenAPIDocument

    /// Loads the document at `path` and every file its references reach (YAML or JSON).
    /// - Throws: ``OpenAPISpecError`` listing every error with its `file:line:column` and JSON pointer.
    public init(contentsOf path: String, options: Options = Options()) throws(OpenAPISpecError) {
        self.path = path
        self.options = options
        do {
            document = try DocumentLoader(readers: .jsonAndYAML, options: options.loaderOptions).load(path: path)
        } catch {
            throw OpenAPISpecError(findings: error.findings.map(\.description))
        }
    }

    /// A document given as its text (YAML or JSON), named `name` in messages.
    public init(text: String, name: String = "openapi.yaml", options: Options = Options()) throws(OpenAPISpecError) {
        path = name
        self.options = options
        do {
            let tree = try YAMLReader.document(Array(text.utf8))
            document = try DocumentLoader(readers: .jsonAndYAML, options: options.loaderOptions).load(tree, uri: "memory:" + name)
        } catch let error as YAMLError {
            throw OpenAPISpecError(findings: ["\(name):\(error)"])
        } catch let error as DocumentLoadError {
            throw OpenAPISpecError(findings: error.findings.map(\.description))
        } catch {
            throw OpenAPISpecError(findings: ["\(name): \(error)"])
        }
    }

    /// A document loaded already (a test's, with its own remotes).
    package init(document: OpenAPIDocument, name: String, options: Options = Options()) {
        path = name
        self.options = options
        self.document = document
    }

    /// The `openapi` version it declares.
    public var version: String { document.version }
    /// `info.title`.
    public var title: String { document.title }
    /// Its operations' ids (`operationId`, or `METHOD /path`), in the document's order.
    public var operationIDs: [String] { document.operations.map(\.id) }
    /// What loading found that does not stop it (an example that contradicts its schema, a 3.0 keyword in 3.1),
    /// each as `file:line:column: warning: message (at #/pointer)`.
    public var warnings: [String] { document.findings.filter { $0.severity == .warning }.map(\.description) }
    /// How many files it was read from.
    public var fileCount: Int { document.fileCount }

    /// What holds the traffic of `upstream` to it.
    func makeContract() -> ContractChecker {
        ContractChecker(document: document)
    }

    /// The mock that serves it, for one server (its state and forced preferences are that server's).
    func makeEngine() -> MockEngine {
        var mock = MockOptions()
        mock.validatesRequests = options.validatesRequests
        mock.stateful = options.stateful
        mock.dynamic = options.dynamic
        return MockEngine(document: document, options: mock)
    }
}

extension OpenAPISpec.Options {
    var loaderOptions: DocumentLoader.Options {
        var loader = DocumentLoader.Options()
        loader.examplesMustMatch = examplesMustMatch
        loader.tolerates30Keywords = tolerates30Keywords
        return loader
    }
}

/// Why a document cannot be served: every error, each `file:line:column: error: message (at #/pointer)`.
public struct OpenAPISpecError: Error, Sendable, CustomStringConvertible {
    /// Each finding, as a compiler writes one.
    public let findings: [String]

    /// Every finding, one per line.
    public var description: String { findings.joined(separator: "\n") }
}
