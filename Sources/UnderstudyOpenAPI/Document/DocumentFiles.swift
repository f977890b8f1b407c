import Foundation
import UnderstudyJSON

/// The files of one document, read once each as references reach them: the root, and every file a `$ref` names
/// (DigitalOcean's spec is 2,907 files). Also what the schema registry fetches through, so a schema in another file
/// is the same tree. Names no network location: a `$ref` to `http(s)://` is unresolved unless mapped.
package final class DocumentFiles {
    /// A file read: its bytes (for positions), tree and reader.
    struct File {
        let bytes: [UInt8]
        let tree: JSONValue
        let reader: DocumentReader
        /// The path as a message names it.
        let name: String
    }

    private let readers: DocumentReaders
    private var files: [String: File] = [:]
    /// Files that could not be read, with why, so the reference that named them can say so.
    private(set) var failures: [String: String] = [:]
    /// Where a URI other than a file's is read from (a test's remotes); nil: nowhere.
    private let remote: (String) -> JSONValue?
    /// The directory names are given relative to.
    private let relativeTo: String

    package init(readers: DocumentReaders, relativeTo directory: String = FileManager.default.currentDirectoryPath,
                 remote: @escaping (String) -> JSONValue? = { _ in nil }) {
        self.readers = readers
        self.remote = remote
        relativeTo = directory
    }

    /// The file URI of a path (relative to the working directory).
    package static func uri(ofPath path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// Adds a tree that was not read from a file (a document given in memory).
    func add(_ tree: JSONValue, uri: String) {
        files[uri] = File(bytes: [], tree: tree, reader: .json, name: uri)
    }

    /// The tree of the file at `uri` (no fragment), read the first time; nil when it cannot be read or parsed.
    func tree(_ uri: String) -> JSONValue? {
        if let file = files[uri] { return file.tree }
        if failures[uri] != nil { return nil }
        guard let url = URL(string: uri), url.isFileURL else {
            if let tree = remote(uri) {
                files[uri] = File(bytes: [], tree: tree, reader: .json, name: uri)
                return tree
            }
            failures[uri] = "only files are read: no network fetch is made"
            return nil
        }
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            failures[uri] = "no such file: \(name(of: path))"
            return nil
        }
        guard !isDirectory.boolValue else {
            failures[uri] = "\(name(of: path)) is a directory, not a document"
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            failures[uri] = "cannot read \(name(of: path))"
            return nil
        }
        let bytes = Array(data)
        let reader = readers.reader(for: path)
        do {
            let tree = try reader.parse(bytes)
            files[uri] = File(bytes: bytes, tree: tree, reader: reader, name: name(of: path))
            return tree
        } catch {
            failures[uri] = "\(name(of: path)):\(error)"
            return nil
        }
    }

    /// The finding at `pointer` of the file at `uri`, with its line and column when they can be found.
    func finding(_ severity: DocumentFinding.Severity, uri: String, pointer: [String], _ message: String) -> DocumentFinding {
        guard let file = files[uri] else {
            return DocumentFinding(severity, file: uri, pointer: JSONPointer.text(pointer), message: message)
        }
        // The nearest enclosing value that can be found, when the pointer names something absent.
        var tokens = pointer
        var place = file.reader.position(file.bytes, file.tree, tokens)
        while place == nil, !tokens.isEmpty {
            tokens.removeLast()
            place = file.reader.position(file.bytes, file.tree, tokens)
        }
        return DocumentFinding(severity, file: file.name, line: place?.line, column: place?.column,
                               pointer: JSONPointer.text(pointer), message: message)
    }

    /// How many files were read.
    package var count: Int { files.count }

    private func name(of path: String) -> String {
        let base = relativeTo.hasSuffix("/") ? relativeTo : relativeTo + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
