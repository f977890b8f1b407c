/// Something found in a document while loading it: where (the file, its line and column when known, and the JSON
/// pointer) and what. An error stops the document from being served; a warning is said and served past.
package struct DocumentFinding: Sendable, Equatable, CustomStringConvertible {
    package enum Severity: String, Sendable {
        case error, warning
    }

    package var severity: Severity
    /// The file's path as given (relative to where it was loaded from), or its URI.
    package var file: String
    package var line: Int?
    package var column: Int?
    /// The JSON pointer of the offending value in its file.
    package var pointer: String
    package var message: String

    package init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, pointer: String, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer
        self.message = message
    }

    /// A finding as a load notes it: its place is looked up in the file when the load ends.
    struct Note {
        var severity: Severity
        var location: SchemaLocation
        var message: String
    }

    /// `file:line:column: error: message (at #/pointer)`, as compilers write a finding.
    package var description: String {
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(place): \(severity.rawValue): \(message) (at #\(pointer))"
    }
}

/// Why a document cannot be served: its errors, each with its place.
package struct DocumentLoadError: Error, Sendable, CustomStringConvertible {
    package var findings: [DocumentFinding]

    package init(_ findings: [DocumentFinding]) {
        self.findings = findings
    }

    package var description: String {
        findings.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
    }
}
