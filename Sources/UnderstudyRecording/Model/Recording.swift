import Foundation

/// A recording: every recorded request with its answers in order, and the options it was made with.
///
/// Load one from a directory a ``RecordingWriter`` wrote (or the HAR importer, or a person), then answer requests
/// from it with ``ReplayMatcher``.
public struct Recording: Sendable, Equatable {
    /// One request key's file: the request and the answers to it, first to last.
    public struct Entry: Sendable, Equatable {
        /// The request, as recorded (secrets already placeholders).
        public var request: RecordedExchange.Request
        /// The answers, in the order they were given; a replay gives the Nth to the Nth identical request.
        public var responses: [RecordedExchange.Response]
        /// The file, relative to the recording's directory, e.g. `GET/products/1.json`.
        public var file: String

        /// An entry.
        public init(request: RecordedExchange.Request, responses: [RecordedExchange.Response], file: String) {
            self.request = request
            self.responses = responses
            self.file = file
        }
    }

    /// The name of the manifest at the top of a recording's directory.
    public static let manifestName = "understudy-recording.json"

    /// The entries, ordered by file name.
    public var entries: [Entry]
    /// How the recording was made (from its manifest): ignored parameters, extra redacted fields, redaction.
    public var options: RecordingOptions

    /// A recording from entries already in memory.
    public init(entries: [Entry] = [], options: RecordingOptions = RecordingOptions()) {
        self.entries = entries
        self.options = options
    }

    /// Loads the recording in `directory`: its manifest (when present) and every `*.json` file below it.
    ///
    /// Hidden files are skipped, and with them the temporary files a writer killed mid-write leaves behind, so a
    /// half-written file is never read.
    /// - Throws: `RecordingError`: `file:line:column: reason` for a file that is not valid JSON or not a
    ///   recording file, or the reason the directory could not be read.
    public init(contentsOf directory: URL) throws(RecordingError) {
        let store = RecordingDirectory(directory)
        options = try store.readManifest() ?? RecordingOptions()
        entries = []
        for file in try store.recordingFiles() {
            let (request, responses) = try RecordingFile.decode(try store.read(file), file: store.displayPath(file))
            entries.append(Entry(request: request, responses: responses, file: file))
        }
    }
}
