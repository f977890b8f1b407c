import Foundation
import UnderstudyJSON

/// How one format of file becomes a tree, and where a value of it is: JSON is built in; YAML is given by the caller
/// that links a YAML parser (the server and the CLI, through UnderstudyYAML), so this library links no C.
package struct DocumentReader: Sendable {
    /// The tree of a file's bytes, or an error with its line and column in its description.
    package var parse: @Sendable ([UInt8]) throws -> JSONValue
    /// The 1-based line and column where the value at a JSON pointer starts (given the bytes, their tree, and the
    /// pointer's tokens).
    package var position: @Sendable ([UInt8], JSONValue, [String]) -> (line: Int, column: Int)?

    package init(parse: @escaping @Sendable ([UInt8]) throws -> JSONValue,
                 position: @escaping @Sendable ([UInt8], JSONValue, [String]) -> (line: Int, column: Int)?) {
        self.parse = parse
        self.position = position
    }

    /// JSON, by UnderstudyJSON's parser.
    package static let json = DocumentReader(parse: { try JSONParser.parse($0) }, position: { bytes, tree, pointer in
        // A token is an index where the tree has an array, a key where it has an object (`200` is a key there).
        var components: [JSONPathComponent] = []
        var current: JSONValue? = tree
        for token in pointer {
            if case .array? = current, let index = Int(token) { components.append(.index(index)) } else { components.append(.key(token)) }
            current = current.flatMap { JSONPointer.value(at: [token], in: $0) }
        }
        return JSONParser.position(of: components, in: bytes)
    })
}

/// The readers a loader has, by file: `.json` files are JSON, `.yaml` and `.yml` YAML, and anything else YAML when a
/// YAML reader is given (JSON is YAML), JSON otherwise.
package struct DocumentReaders: Sendable {
    package var yaml: DocumentReader?

    package init(yaml: DocumentReader? = nil) {
        self.yaml = yaml
    }

    func reader(for path: String) -> DocumentReader {
        path.lowercased().hasSuffix(".json") ? .json : (yaml ?? .json)
    }
}
