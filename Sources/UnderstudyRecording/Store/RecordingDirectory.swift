import Foundation
import UnderstudyLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recording's directory on disk: listing its files, reading one, writing one atomically, and its manifest.
struct RecordingDirectory: Sendable {
    let url: URL

    init(_ url: URL) {
        self.url = url.standardizedFileURL
    }

    /// A path as error messages show it: the directory's path joined with the relative one.
    func displayPath(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }

    /// The recording files below the directory, relative and sorted: every `*.json` but the manifest, skipping
    /// hidden files and folders (a writer's temporary files are hidden).
    func recordingFiles() throws(RecordingError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RecordingError(file: url.path, reason: "no recording directory here")
        }
        guard let enumerator = FileManager.default.enumerator(atPath: url.path) else {
            throw RecordingError(file: url.path, reason: "the directory cannot be read")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            guard name.hasSuffix(".json"), relative != Recording.manifestName else { continue }
            files.append(relative)
        }
        return files.sorted()
    }

    /// The bytes of a file, by relative path.
    func read(_ relative: String) throws(RecordingError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(relative).path) else {
            throw RecordingError(file: displayPath(relative), reason: "the file cannot be read")
        }
        return [UInt8](data)
    }

    /// Writes a file so that a reader sees the old bytes or the new ones, never part of them: the bytes go to a
    /// hidden temporary file in the same directory, which is then renamed over the file (rename is atomic within
    /// one file system; loading skips hidden files, so one left by a kill is never read).
    func writeAtomically(_ bytes: [UInt8], to relative: String) throws(RecordingError) {
        let target = url.appendingPathComponent(relative)
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(getpid())-\(Self.nextSerial()).tmp")
        // Plain POSIX calls, no fsync: what must survive is the process being killed (the page cache outlives it),
        // and Foundation's write synced each file, a tenth of a recording proxy's writing time. The folder is made
        // only when the file cannot be created without it.
        var descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RecordingError(file: displayPath(relative), reason: "cannot write: \(error.localizedDescription)")
            }
            descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else {
            throw RecordingError(file: displayPath(relative), reason: "cannot write: \(String(cString: strerror(errno)))")
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let writeError = written == bytes.count ? nil : String(cString: strerror(errno))
        guard close(descriptor) == 0, writeError == nil else {
            let reason = writeError ?? String(cString: strerror(errno))
            unlink(temporary.path)
            throw RecordingError(file: displayPath(relative), reason: "cannot write: \(reason)")
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw RecordingError(file: displayPath(relative), reason: "cannot rename into place: \(reason)")
        }
    }

    /// The options in the manifest, or nil when the directory has none.
    func readManifest() throws(RecordingError) -> RecordingOptions? {
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent(Recording.manifestName).path) else { return nil }
        return try RecordingManifest.decode(try read(Recording.manifestName), file: displayPath(Recording.manifestName))
    }

    /// Writes the manifest for `options`.
    func writeManifest(_ options: RecordingOptions) throws(RecordingError) {
        try writeAtomically(RecordingManifest.encode(options), to: Recording.manifestName)
    }

    /// Temporary names are unique within the process: two writers may write the same file at once.
    private static let serial = Locked(0)

    private static func nextSerial() -> Int {
        serial.withLock { serial in
            serial += 1
            return serial
        }
    }
}
