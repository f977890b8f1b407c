import Dispatch
import Foundation
import UnderstudyLocking

/// Appends exchanges to a recording's directory as they happen, on a background queue of its own.
///
/// ``append(_:)`` only hands the value over, so the server's event loop never waits for a disk; ``flush()`` (or
/// ``flushed()``) waits until everything handed over is on disk. Each exchange is redacted (unless the options
/// turn redaction off), then added to its request key's file as the next answer of the sequence; every file is
/// written whole to a temporary file and renamed into place. Nothing handed over is dropped: the writer keeps an
/// index of request keys (a request body in canonical form is part of its key) and file names, never the replies
/// it wrote, and says when what waits for the disk passes ``maximumPendingBytes`` (``isBehind``), so a proxy
/// holds back new exchanges until the disk catches up.
///
/// ```swift
/// let writer = try RecordingWriter(directory: URL(fileURLWithPath: "Recordings/api"))
/// writer.append(RecordedExchange(request: .init(method: "GET", path: "/products/1"),
///                                response: .init(status: 200, body: Array(#"{"id":1}"#.utf8))))
/// writer.flush()
/// ```
public final class RecordingWriter: Sendable {
    /// Where a key's answers are written and how many there are.
    private struct FileState {
        var path: String
        var count: Int
    }

    /// What the queue works with; locked only by the queue, so `append` never waits for a redaction.
    private struct State {
        var redactor: Redactor
        var files: [RequestKey: FileState] = [:]
        /// Every file name in use, lower-cased: two keys never share a name, even on a case-insensitive disk.
        var takenNames: Set<String> = []
    }

    /// What `append` and the queue share, each for a moment.
    private struct Handover {
        /// Bytes handed over and not yet written (see ``RecordingWriter/maximumPendingBytes``).
        var pendingBytes = 0
        var failures: [RecordingError] = []
    }

    /// The directory written to.
    public let directory: URL
    /// The options written into the manifest and used for keys and redaction.
    public let options: RecordingOptions
    /// The most answers kept per request key; later answers to the same request are not written (a replay
    /// repeats the last one), so a polled endpoint does not grow a file without end.
    public let maximumSequence: Int
    /// Past this many bytes waiting for the disk the writer is behind (``isBehind``): its callers hold back more
    /// until it catches up. What is already handed over stays, so a `kill -9` loses at most about this much.
    public static let maximumPendingBytes = 8 << 20

    private let store: RecordingDirectory
    private let rules: KeyRules
    private let queue = DispatchQueue(label: "understudy.recording-writer", qos: .utility)
    private let state: Locked<State>
    private let handover = Locked(Handover())

    /// Opens `directory` for recording, creating it and its manifest when needed.
    ///
    /// A directory recorded into before keeps its files: new answers join their keys' sequences, and new
    /// placeholders are numbered after the highest one already written. The options given are merged with the
    /// manifest's (ignored parameters and redacted fields added).
    /// - Throws: `RecordingError` when the directory cannot be created or an existing file cannot be read.
    public init(directory: URL, options: RecordingOptions = RecordingOptions(), maximumSequence: Int = 64) throws(RecordingError) {
        store = RecordingDirectory(directory)
        self.directory = store.url
        do {
            try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)
        } catch {
            throw RecordingError(file: store.url.path, reason: "cannot create the directory: \(error.localizedDescription)")
        }
        let merged = try store.readManifest()?.adding(options) ?? options
        self.options = merged
        self.maximumSequence = max(1, maximumSequence)
        rules = KeyRules(options: merged)
        var initial = State(redactor: Redactor(options: merged))
        var highest = 0
        for file in try store.recordingFiles() {
            let bytes = try store.read(file)
            let (request, responses) = try RecordingFile.decode(bytes, file: store.displayPath(file))
            initial.files[RequestKey(request, rules: rules)] = FileState(path: file, count: responses.count)
            initial.takenNames.insert(file.lowercased())
            highest = max(highest, Redactor.highestNumber(in: bytes))
        }
        initial.redactor = Redactor(options: merged, lastNumber: highest)
        state = Locked(initial)
        try store.writeManifest(merged)
    }

    /// Hands an exchange over to be written; returns at once. Never drops it: a caller that must not hold
    /// memory without bound waits while ``isBehind``.
    public func append(_ exchange: RecordedExchange) {
        let size = exchange.request.body.count + exchange.response.body.count + 512
        handover.withLock { $0.pendingBytes += size }
        queue.async { [self] in
            write(exchange)
            handover.withLock { $0.pendingBytes -= size }
        }
    }

    /// Blocks until everything appended so far is on disk. Never call it from a task that must not block.
    public func flush() {
        queue.sync {}
    }

    /// Suspends until everything appended so far is on disk.
    public func flushed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Whether more than ``maximumPendingBytes`` wait for the disk.
    public var isBehind: Bool {
        handover.withLock { $0.pendingBytes > Self.maximumPendingBytes }
    }

    /// Bytes handed over and not yet on disk: 0 once everything appended so far is written.
    public var pendingBytes: Int {
        handover.withLock { $0.pendingBytes }
    }

    /// What could not be written so far (a full disk, a directory made read-only), oldest first.
    public var failures: [RecordingError] {
        handover.withLock { $0.failures }
    }

    /// Runs on the queue: redacts, finds the key's file, and rewrites it with the new answer.
    private func write(_ exchange: RecordedExchange) {
        var kept = exchange
        kept.request.headers = HeaderPolicy.keptRequestHeaders(exchange.request.headers)
        kept.response.headers = HeaderPolicy.keptResponseHeaders(exchange.response.headers)
        // The key comes from the request as sent: masking makes it the same as the redacted request's.
        let key = RequestKey(kept.request, rules: rules)
        let (redacted, known) = state.withLock { state in
            let redacted = options.redacts ? state.redactor.redact(kept) : kept
            return (redacted, state.files[key])
        }
        do throws(RecordingError) {
            if let known {
                guard known.count < maximumSequence else { return }
                let (request, responses) = try RecordingFile.decode(try store.read(known.path), file: store.displayPath(known.path))
                try store.writeAtomically(RecordingFile.encode(request, responses + [redacted.response]), to: known.path)
                state.withLock { $0.files[key]?.count = responses.count + 1 }
            } else {
                let path = claimName(for: key)
                try store.writeAtomically(RecordingFile.encode(redacted.request, [redacted.response]), to: path)
            }
        } catch {
            handover.withLock { $0.failures.append(error) }
        }
    }

    private func claimName(for key: RequestKey) -> String {
        let stem = RecordingFileName.stem(for: key)
        return state.withLock { state in
            var number = 1
            while state.takenNames.contains(RecordingFileName.path(stem: stem, number: number).lowercased()) { number += 1 }
            let path = RecordingFileName.path(stem: stem, number: number)
            state.takenNames.insert(path.lowercased())
            state.files[key] = FileState(path: path, count: 1)
            return path
        }
    }
}
