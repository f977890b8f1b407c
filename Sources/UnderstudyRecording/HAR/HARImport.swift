import Foundation
import UnderstudyJSON

/// A HAR file written into a recording directory through the recording's own writer, so an import is redacted,
/// named, sequenced and written atomically exactly as a recorded session is.
package struct HARImport: Sendable {
    /// The file read.
    package var archive: HARArchive
    /// The directory's recording once the import is on disk (what was there before, plus the import).
    package var recording: Recording
    /// What the writer could not write, oldest first; empty when everything is on disk.
    package var failures: [RecordingError]
    /// Answers not written because their request already had `maximumSequence` (a polled endpoint).
    package var beyondSequence: Int
    /// The most answers the recording keeps per request.
    package var maximumSequence: Int

    /// Reads `file` and writes the usable exchanges `reading` keeps into `directory` with `options` (redaction on
    /// by default). A directory the import made and wrote nothing into is removed again.
    ///
    /// Identical requests become one file whose answers keep the HAR's order, which every exporter keeps for
    /// requests to one URL (Pulse groups entries by URL, in the order the tasks were made).
    /// - Throws: `HARImportError` for a file that cannot be read, is not JSON or not a HAR log, or a directory the
    ///   writer cannot open.
    package static func run(file: URL, into directory: URL, options: RecordingOptions = RecordingOptions(),
                            reading: HARReadOptions = HARReadOptions()) throws(HARImportError) -> HARImport {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .unreadable(file: file.path, reason: "it is a directory, not a HAR file")
        }
        let bytes: [UInt8]
        do {
            bytes = try [UInt8](Data(contentsOf: file))
        } catch {
            throw .unreadable(file: file.path, reason: (error as NSError).localizedDescription)
        }
        let archive: HARArchive
        do {
            archive = try HARArchive.read(bytes, options: reading)
        } catch {
            throw .notHAR(file: file.path, error)
        }
        let existed = FileManager.default.fileExists(atPath: directory.path)
        let writer: RecordingWriter
        do {
            writer = try RecordingWriter(directory: directory, options: options)
        } catch {
            throw .directory(error)
        }
        let answersBefore = (try? Recording(contentsOf: directory))?.answerCount ?? 0
        // An import can wait for the disk: it lets the writer catch up before what waits passes its bound.
        var handedOver = 0
        for exchange in archive.exchanges {
            let size = exchange.recorded.request.body.count + exchange.recorded.response.body.count + 512
            if handedOver + size > RecordingWriter.maximumPendingBytes / 2 {
                writer.flush()
                handedOver = 0
            }
            writer.append(exchange.recorded)
            handedOver += size
        }
        writer.flush()
        let recording: Recording
        do {
            recording = try Recording(contentsOf: directory)
        } catch {
            throw .directory(error)
        }
        let written = recording.answerCount - answersBefore
        if !existed, written == 0 { try? FileManager.default.removeItem(at: directory) }
        return HARImport(archive: archive, recording: recording, failures: writer.failures,
                         beyondSequence: max(0, archive.exchanges.count - written - writer.failures.count),
                         maximumSequence: writer.maximumSequence)
    }
}

extension Recording {
    /// How many answers the recording holds, over every request.
    var answerCount: Int { entries.reduce(0) { $0 + $1.responses.count } }
}

/// Why an import wrote nothing.
package enum HARImportError: Error, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(file: String, reason: String)
    /// The file is not JSON, or not a HAR log.
    case notHAR(file: String, HARReadError)
    /// The directory could not be opened or read back.
    case directory(RecordingError)

    /// `trace.har:2:15: not JSON: …`, `trace.har: not a HAR file: …`, `DIR: cannot create the directory: …`.
    package var description: String {
        switch self {
        case .unreadable(let file, let reason): "\(file): cannot read it: \(reason)"
        case .notHAR(let file, .notJSON(let error)): "\(file):\(error.line):\(error.column): not JSON: \(error.reason)"
        case .notHAR(let file, let error): "\(file): \(error)"
        case .directory(let error): error.description
        }
    }
}
