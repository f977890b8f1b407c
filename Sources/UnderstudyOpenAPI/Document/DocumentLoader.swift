import Foundation
import UnderstudyJSON

/// Loads an OpenAPI 3.0, 3.1 or 3.2 document to serve: the root file and every file its references reach (read
/// once each), every `$ref` resolved (a cycle through schemas is fine; one through other objects is an error),
/// every schema compiled into one graph, and every example checked against its schema. An error names its file,
/// line, column and JSON pointer; any error stops the load.
package struct DocumentLoader {
    package struct Options: Sendable {
        /// Whether an example that contradicts its schema is an error (it is a warning otherwise).
        package var examplesMustMatch = false
        /// Whether a 3.1 document's OpenAPI 3.0 `nullable: true` is read as 3.0 reads it (OpenAI's has 111), rather
        /// than as the annotation JSON Schema 2020-12 makes of an unknown keyword.
        package var tolerates30Keywords = false

        package init() {}
    }

    let readers: DocumentReaders
    let options: Options
    /// Where URIs other than files are read from (a test's remotes).
    let remote: @Sendable (String) -> JSONValue?

    package init(readers: DocumentReaders, options: Options = Options(),
                 remote: @escaping @Sendable (String) -> JSONValue? = { _ in nil }) {
        self.readers = readers
        self.options = options
        self.remote = remote
    }

    /// The document in the file at `path`.
    package func load(path: String) throws(DocumentLoadError) -> OpenAPIDocument {
        let files = DocumentFiles(readers: readers, remote: remote)
        let uri = DocumentFiles.uri(ofPath: path)
        guard files.tree(uri) != nil else {
            let reason = files.failures[uri] ?? "cannot read \(path)"
            throw DocumentLoadError([DocumentFinding(.error, file: path, pointer: "", message: reason)])
        }
        return try DocumentBuilder(files: files, root: uri, options: options).build()
    }

    /// A document given as a tree (`uri` names it in messages and is the base of its references).
    package func load(_ tree: JSONValue, uri: String = "memory:openapi.json") throws(DocumentLoadError) -> OpenAPIDocument {
        let files = DocumentFiles(readers: readers, remote: remote)
        files.add(tree, uri: uri)
        return try DocumentBuilder(files: files, root: uri, options: options).build()
    }
}
