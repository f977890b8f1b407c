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
    /// The host whose entries were kept (`.main` or `.named`); nil when every host was.
    package var host: String?
    /// Every host with a usable entry, and how many, in the order they first appear.
    package var hosts: [(name: String, entries: Int)] = []

    /// Reads a HAR file's bytes (UTF-8, a byte-order mark allowed as the spec asks), keeping what `options` asks.
    /// - Throws: `HARReadError` when the bytes are not JSON (with the line and column) or not a HAR log.
    package static func read(_ bytes: [UInt8], options: HARReadOptions = HARReadOptions()) throws(HARReadError) -> HARArchive {
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
        var reader = HAREntryReader(exporter: exporter, options: options)
        reader.answered = HARArchive.answeredRequests(items)
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
            switch reader.read(item, index: index) {
            case .success(let exchange): archive.exchanges.append(exchange)
            case .failure(let skip):
                archive.skipped.append(Skipped(entryIndex: index, request: HAREntryReader.describe(item, index: index),
                                               reason: skip.reason))
            }
        }
        archive.keep(options.hosts)
        return archive
    }

    /// The requests the file answers with a 2xx (`HAREntryReader.key`).
    private static func answeredRequests(_ items: [JSONValue]) -> Set<String> {
        Set(items.compactMap { item in
            guard let status = item["response"]?["status"]?.intValue, (200..<300).contains(status),
                  let method = item["request"]?["method"]?.stringValue, let url = item["request"]?["url"]?.stringValue
            else { return nil }
            return HAREntryReader.key(method: method, url: url)
        })
    }

    /// Keeps the chosen host's exchanges and lists the others' as skipped, saying how to import them.
    private mutating func keep(_ choice: HARReadOptions.Hosts) {
        var counts: [(name: String, entries: Int)] = []
        for exchange in exchanges {
            if let index = counts.firstIndex(where: { $0.name == exchange.host }) {
                counts[index].entries += 1
            } else {
                counts.append((exchange.host, 1))
            }
        }
        hosts = counts
        let chosen: String
        switch choice {
        case .all:
            return
        case .main:
            // Hosts that tie for the most entries (five beacons, one each) leave no API to choose: all are kept.
            guard let most = counts.map(\.entries).max(), counts.filter({ $0.entries == most }).count == 1,
                  let main = counts.first(where: { $0.entries == most }) else { return }
            chosen = main.name
        case .named(let name):
            chosen = name.lowercased()
        }
        host = chosen
        let isChosen = { (exchange: HARExchange) in exchange.host == chosen || exchange.authority == chosen }
        for exchange in exchanges where !isChosen(exchange) {
            let why = choice == .main
                ? "on \(exchange.host), not \(chosen), the host most entries are on: --host \(exchange.host) imports "
                    + "that host instead, --all-hosts every host"
                : "on \(exchange.host), not \(chosen), the host asked for (--all-hosts imports every host)"
            skipped.append(Skipped(entryIndex: exchange.entryIndex, request: exchange.url, reason: why))
        }
        skipped.sort { $0.entryIndex < $1.entryIndex }
        exchanges.removeAll { !isChosen($0) }
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
