/// The `text/event-stream` parser of WHATWG HTML §9.2.6, as a pure value fed raw bytes.
///
/// Feed chunks as they arrive, split anywhere (inside a CRLF, inside a UTF-8 sequence, inside the BOM); events
/// come out as soon as their blank line is seen. It keeps no reference to any connection, so it can be fuzzed
/// and tested byte by byte.
///
/// ```swift
/// var parser = SSEParser()
/// for event in parser.consume(Array("data: hi\n\n".utf8)) { print(event.data) }   // "hi"
/// ```
package struct SSEParser: Sendable {
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D

    /// The last event ID committed by a dispatch; sent as `Last-Event-ID` on reconnect when non-empty.
    package private(set) var lastEventID = ""
    /// The reconnection time from the most recent valid `retry:` field.
    package private(set) var reconnectionTime: Duration?

    private var line: [UInt8] = []
    private var lastEventIDBuffer = ""
    private var data = ""
    private var eventType = ""
    private var blockRetry: Duration?
    /// A CR ended the previous line; an LF right after it (even in the next chunk) belongs to it.
    private var afterCR = false
    /// How many bytes of a leading BOM have been matched; nil once the stream start is behind us.
    private var bomMatched: Int? = 0

    /// Creates a parser at the start of a stream.
    ///
    /// - Parameter lastEventID: The ID a stream seen earlier left off at, kept until the stream sends an `id:`.
    package init(lastEventID: String = "") {
        self.lastEventID = lastEventID
        self.lastEventIDBuffer = lastEventID
    }

    /// Parses the next chunk of the stream.
    ///
    /// - Parameter bytes: The chunk, as received.
    /// - Returns: The events completed by this chunk, in order.
    package mutating func consume(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if let matched = bomMatched {
                if byte == Self.bom[matched] {
                    bomMatched = matched + 1 == Self.bom.count ? nil : matched + 1
                    continue
                }
                // Not a BOM after all: the bytes held back are ordinary content.
                bomMatched = nil
                for held in Self.bom[0..<matched] { feed(held, into: &events) }
            }
            feed(byte, into: &events)
        }
        return events
    }

    /// Ends the stream: a partial event is discarded, and the parser is ready for a new connection's stream
    /// (BOM allowed again). The last event ID and the reconnection time survive.
    package mutating func finish() {
        line.removeAll(keepingCapacity: true)
        data = ""
        eventType = ""
        blockRetry = nil
        afterCR = false
        bomMatched = 0
        lastEventIDBuffer = lastEventID
    }

    private mutating func feed(_ byte: UInt8, into events: inout [ServerSentEvent]) {
        if afterCR {
            afterCR = false
            if byte == Self.lf { return }
        }
        switch byte {
        case Self.cr:
            afterCR = true
            endLine(into: &events)
        case Self.lf:
            endLine(into: &events)
        default:
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            if let event = dispatch() { events.append(event) }
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let field: String
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: line[..<colon], as: UTF8.self)
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = String(decoding: line, as: UTF8.self)
            value = []
        }
        process(field: field, value: value)
    }

    private mutating func process(field: String, value: ArraySlice<UInt8>) {
        switch field {
        case "data":
            data += String(decoding: value, as: UTF8.self)
            data += "\n"
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            guard !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let milliseconds = Int(String(decoding: value, as: UTF8.self)) else { return }
            reconnectionTime = .milliseconds(milliseconds)
            blockRetry = reconnectionTime
        default:
            break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = lastEventIDBuffer
        defer {
            data = ""
            eventType = ""
            blockRetry = nil
        }
        guard !data.isEmpty else { return nil }
        var payload = data
        if payload.hasSuffix("\n") { payload.removeLast() }
        return ServerSentEvent(id: lastEventID, event: eventType.isEmpty ? "message" : eventType,
                               data: payload, retry: blockRetry)
    }
}
