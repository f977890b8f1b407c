import Foundation
import UnderstudyJSON

/// How one format of file becomes a tree, and where a value of it is: JSON is built in; YAML is given by the caller
/// that links a YAML parser (the server and the CLI, through UnderstudyYAML), so this library links no C.
package struct DocumentReader: Sendable {
    /// A file read: its tree, and where values start in it.
    package struct Parsed {
        package var tree: JSONValue
        /// The 1-based line and column where the value at each JSON pointer (as tokens) starts; a pointer that names
        /// nothing is absent. Asked once, with every pointer a load's findings name.
        package var positions: (Set<[String]>) -> [[String]: (line: Int, column: Int)]

        package init(tree: JSONValue, positions: @escaping (Set<[String]>) -> [[String]: (line: Int, column: Int)]) {
            self.tree = tree
            self.positions = positions
        }
    }

    /// The tree of a file's bytes and its positions, or an error with its line and column in its description.
    package var parse: @Sendable ([UInt8]) throws -> Parsed

    package init(parse: @escaping @Sendable ([UInt8]) throws -> Parsed) {
        self.parse = parse
    }

    /// JSON, by UnderstudyJSON's parser (positions found in one more read of the text, when asked).
    package static let json = DocumentReader { bytes in
        let tree = try JSONParser.parse(bytes)
        return Parsed(tree: tree) { pointers in jsonPositions(of: pointers, in: bytes, tree: tree) }
    }

    private static func jsonPositions(of pointers: Set<[String]>, in bytes: [UInt8], tree: JSONValue)
        -> [[String]: (line: Int, column: Int)] {
        var paths: [[JSONPathComponent]: [String]] = [:]
        for pointer in pointers {
            // A token is an index where the tree has an array, a key where it has an object (`200` is a key there).
            var components: [JSONPathComponent] = []
            var current: JSONValue? = tree
            for token in pointer {
                if case .array? = current, let index = Int(token) { components.append(.index(index)) } else { components.append(.key(token)) }
                current = current.flatMap { JSONPointer.member(token, of: $0) }
            }
            paths[components] = pointer
        }
        var found: [[String]: (line: Int, column: Int)] = [:]
        for (path, place) in JSONParser.positions(of: Set(paths.keys), in: bytes) {
            if let pointer = paths[path] { found[pointer] = place }
        }
        return found
    }
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
