import Foundation
import UnderstudyJSON

/// The files of one document, read once each as references reach them: the root, and every file a `$ref` names
/// (DigitalOcean's spec is 2,907 files). Also what the schema registry fetches through, so a schema in another file
/// is the same tree. Names no network location: a `$ref` to `http(s)://` is unresolved unless mapped.
package final class DocumentFiles {
    /// A file read: its tree and where its values are.
    struct File {
        let tree: JSONValue
        let positions: (Set<[String]>) -> [[String]: (line: Int, column: Int)]
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
        files[uri] = File(tree: tree, positions: { _ in [:] }, name: uri)
    }

    /// The tree of the file at `uri` (no fragment), read the first time; nil when it cannot be read or parsed.
    func tree(_ uri: String) -> JSONValue? {
        if let file = files[uri] { return file.tree }
        if failures[uri] != nil { return nil }
        guard let url = URL(string: uri), url.isFileURL else {
            if let tree = remote(uri) {
                files[uri] = File(tree: tree, positions: { _ in [:] }, name: uri)
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
            let parsed = try reader.parse(bytes)
            files[uri] = File(tree: parsed.tree, positions: parsed.positions, name: name(of: path))
            return parsed.tree
        } catch {
            failures[uri] = "\(name(of: path)):\(error)"
            return nil
        }
    }

    /// Findings at places in these files, each with its line and column when they can be found (else those of the
    /// nearest enclosing value, when the pointer names something absent): each file read again once for all (twice when some name nothing).
    func placed(_ notes: [DocumentFinding.Note]) -> [DocumentFinding] {
        var places: [String: [[String]: (line: Int, column: Int)]] = [:]
        for (uri, group) in Dictionary(grouping: notes, by: \.location.document) {
            guard let file = files[uri] else { continue }
            var found = file.positions(Set(group.map(\.location.pointer)))
            var enclosing = Set<[String]>()
            for note in group where found[note.location.pointer] == nil {
                var tokens = note.location.pointer
                while !tokens.isEmpty {
                    tokens.removeLast()
                    enclosing.insert(tokens)
                }
            }
            if !enclosing.isEmpty { found.merge(file.positions(enclosing)) { first, _ in first } }
            places[uri] = found
        }
        return notes.map { note in
            let location = note.location
            guard let file = files[location.document] else {
                return DocumentFinding(note.severity, file: location.document, pointer: JSONPointer.text(location.pointer),
                                       message: note.message)
            }
            let found = places[location.document] ?? [:]
            var tokens = location.pointer
            var place = found[tokens]
            while place == nil, !tokens.isEmpty {
                tokens.removeLast()
                place = found[tokens]
            }
            return DocumentFinding(note.severity, file: file.name, line: place?.line, column: place?.column,
                                   pointer: JSONPointer.text(location.pointer), message: note.message)
        }
    }

    /// How many files were read.
    package var count: Int { files.count }

    private func name(of path: String) -> String {
        let base = relativeTo.hasSuffix("/") ? relativeTo : relativeTo + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
