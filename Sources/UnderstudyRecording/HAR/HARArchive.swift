import UnderstudyJSON

/// A HAR file read into the exchanges Understudy can replay and the entries it cannot, each with its reason.
///
/// HAR 1.2 (the frozen spec at softwareishard.com) is a JSON object whose `log` holds `version`, `creator` and
/// `entries`; each entry has a `request` and a `response`. Exporters bend it in their own ways (see
/// `HARExporter`); `HAREntryReader` undoes each bend, and an entry it cannot undo is listed, never guessed at.
package struct HARArchive: Sendable {
    /// An entry left out, and why.
    package struct Skipped: Sendable, Equatable, CustomStringConvertible {
        /// The entry's position in `log.entries` (from 0).
        package var entryIndex: Int
        /// `GET https://api.example.com/x`, or `entry 3` when the entry has no usable request.
        package var request: String
        /// Why it cannot be replayed, as a sentence a user can act on.
        package var reason: String

        package var description: String { "entry \(entryIndex) (\(request)): \(reason)" }
    }

    /// The program that wrote the file, as `log.creator` names it.
    package var exporter: HARExporter
    /// The usable entries, in file order.
    package var exchanges: [HARExchange]
    /// The entries left out, in file order.
    package var skipped: [Skipped]

    /// Reads a HAR file's bytes (UTF-8, a byte-order mark allowed as the spec asks).
    /// - Throws: `HARReadError` when the bytes are not JSON (with the line and column) or not a HAR log.
    package static func read(_ bytes: [UInt8]) throws(HARReadError) -> HARArchive {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw .notJSON(error)
        }
        guard case .object = document else {
            throw .notHAR("expected an object with a \"log\" at the top level, found \(document.typeName)")
        }
        guard let log = document["log"] else { throw .notHAR("no \"log\" object at the top level") }
        guard case .object = log else { throw .notHAR("\"log\": expected an object, found \(log.typeName)") }
        guard let entries = log["entries"] else { throw .notHAR("\"log\" has no \"entries\" array") }
        guard case .array(let items) = entries else {
            throw .notHAR("\"log.entries\": expected an array, found \(entries.typeName)")
        }
        let exporter = HARExporter(creator: log["creator"])
        var archive = HARArchive(exporter: exporter, exchanges: [], skipped: [])
        // Pulse's copies, by their compact text without `pageref`: the entry each first appeared as.
        var firstSeen: [[UInt8]: Int] = [:]
        for (index, item) in items.enumerated() {
            if exporter.kind == .pulse {
                let text = JSONWriter.encode(HARArchive.withoutPage(item))
                if let original = firstSeen[text] {
                    archive.skipped.append(Skipped(entryIndex: index, request: HAREntryReader.describe(item, index: index),
                                                   reason: "a copy of entry \(original) (Pulse lists a task again under "
                                                       + "the log message that carries it)"))
                    continue
                }
                firstSeen[text] = index
            }
            switch HAREntryReader(exporter: exporter).read(item, index: index) {
            case .success(let exchange): archive.exchanges.append(exchange)
            case .failure(let skip):
                archive.skipped.append(Skipped(entryIndex: index, request: HAREntryReader.describe(item, index: index),
                                               reason: skip.reason))
            }
        }
        return archive
    }

    /// An entry without its `pageref`: Pulse's second copy of a task differs from the first only there.
    private static func withoutPage(_ entry: JSONValue) -> JSONValue {
        guard case .object(var object) = entry else { return entry }
        object["pageref"] = nil
        return .object(object)
    }
}

/// Why a file is not a HAR log Understudy can read at all.
package enum HARReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not JSON; the parse error carries the line and column.
    case notJSON(JSONParseError)
    /// The file is JSON but not a HAR log.
    case notHAR(String)

    package var description: String {
        switch self {
        case .notJSON(let error): "not JSON: line \(error.line), column \(error.column): \(error.reason)"
        case .notHAR(let reason): "not a HAR file: \(reason)"
        }
    }
}
