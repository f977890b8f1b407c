import Foundation
import UnderstudyJSON

extension HAREntryReader {
    /// A WebSocket entry as a recorded 101 with its conversation, from the `_webSocketMessages` Chrome (and tools that
    /// follow it) writes: `{"type": "send" | "receive", "time": seconds since 1970, "opcode": 1 | 2, "data": …}`, a
    /// binary message's data in base64. Times become milliseconds from the entry's `startedDateTime`, or from the
    /// first message when that is missing or later.
    /// - Throws: `Skip` for a WebSocket whose messages the file does not hold (every exporter but Chrome's).
    func socket(_ entry: JSONValue, index: Int, request: JSONValue, url: HARURL) throws(Skip) -> HARExchange {
        guard case .array(let items)? = entry["_webSocketMessages"], !items.isEmpty else {
            throw Skip(reason: "a WebSocket whose messages the file does not hold (Chrome's HAR files keep them, in "
                           + "_webSocketMessages)")
        }
        var notes: [String] = []
        var read: [(sender: RecordedSocketMessage.Sender, data: [UInt8], isBinary: Bool, seconds: Double)] = []
        var leftOut = 0
        for item in items {
            let sender: RecordedSocketMessage.Sender? = switch item["type"]?.stringValue {
            case "send": .client
            case "receive": .server
            default: nil
            }
            guard let sender, let seconds = item["time"]?.doubleValue, let text = item["data"]?.stringValue else {
                leftOut += 1
                continue
            }
            switch item["opcode"]?.intValue ?? 1 {
            case 1:
                read.append((sender, Array(text.utf8), false, seconds))
            case 2:
                guard case .success(let bytes) = HARBody.base64(text) else {
                    leftOut += 1
                    continue
                }
                read.append((sender, bytes, true, seconds))
            default:
                leftOut += 1
            }
        }
        guard let first = read.first else {
            throw Skip(reason: "a WebSocket none of whose \(items.count) messages is a text or binary message with a "
                           + "type, a time and data")
        }
        if leftOut > 0 {
            notes.append("\(leftOut) of the socket's \(items.count) messages had no type, time or data, or were not "
                         + "text or binary: left out")
        }
        let opened = Self.startedSeconds(entry).flatMap { $0 <= first.seconds ? $0 : nil } ?? first.seconds
        let messages = read.map {
            RecordedSocketMessage($0.sender, data: $0.data, isBinary: $0.isBinary,
                                  milliseconds: max(0, ($0.seconds - opened) * 1_000))
        }
        let requestHeaders = headers(request["headers"], dropping: [])
        let responseHeaders = headers(entry["response"]?["headers"], dropping: [])
        let query = url.query.map { RecordedExchange.QueryItem.parse(Substring($0)) } ?? []
        let recorded = RecordedExchange(
            request: .init(method: "GET", path: url.path, query: query, headers: requestHeaders),
            response: .init(status: 101, headers: responseHeaders, messages: messages))
        return HARExchange(entryIndex: index, recorded: recorded, origin: url.origin, milliseconds: nil, notes: notes)
    }

    /// `startedDateTime` in seconds since 1970, when it is an ISO 8601 date (with or without fractional seconds).
    private static func startedSeconds(_ entry: JSONValue) -> Double? {
        guard let text = entry["startedDateTime"]?.stringValue else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}
