import Foundation
import Testing
@testable import UnderstudyClient

/// The WHATWG parsing rules, ported from the launchdarkly SSE contract cases (see shared/reference/sse.md).
@Suite struct SSEParserTests {
    /// What a test expects of each event: data, type and id.
    struct Expected: Equatable, CustomStringConvertible {
        var data: String
        var event = "message"
        var id = ""
        var description: String { "(\(event) id=\(id) \(data.debugDescription))" }
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var stream: String
        var expected: [Expected]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "one event", stream: "data: hello\n\n", expected: [.init(data: "hello")]),
        Case(name: "empty data line gives empty string", stream: "data:\n\n", expected: [.init(data: "")]),
        Case(name: "bare data fields", stream: "data\n\ndata\ndata\n\n", expected: [.init(data: ""), .init(data: "\n")]),
        Case(name: "no space after colon", stream: "data:x\n\n", expected: [.init(data: "x")]),
        Case(name: "only one space stripped", stream: "data:  x\n\n", expected: [.init(data: " x")]),
        Case(name: "multi-line data", stream: "data: a\ndata: b\n\n", expected: [.init(data: "a\nb")]),
        Case(name: "event type", stream: "event: ping\ndata: x\n\n", expected: [.init(data: "x", event: "ping")]),
        Case(name: "fields in reverse order", stream: "id: 7\nevent: ping\ndata: x\n\n",
             expected: [.init(data: "x", event: "ping", id: "7")]),
        Case(name: "type resets after dispatch", stream: "event: a\ndata: 1\n\ndata: 2\n\n",
             expected: [.init(data: "1", event: "a"), .init(data: "2")]),
        Case(name: "unknown fields ignored", stream: "foo: bar\ndata: x\nDATA: y\n\n", expected: [.init(data: "x")]),
        Case(name: "comments ignored", stream: ": heartbeat\ndata: x\n:\n\n", expected: [.init(data: "x")]),
        Case(name: "colon in value kept", stream: "data: a:b: c\n\n", expected: [.init(data: "a:b: c")]),
        Case(name: "no data, no event", stream: "event: e\n\nid: 1\n\n", expected: []),
        Case(name: "last id persists", stream: "id: 1\ndata: a\n\ndata: b\n\n",
             expected: [.init(data: "a", id: "1"), .init(data: "b", id: "1")]),
        Case(name: "id with NUL ignored", stream: "id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\n",
             expected: [.init(data: "a", id: "1"), .init(data: "b", id: "1")]),
        Case(name: "empty id clears", stream: "id: 1\ndata: a\n\nid\ndata: b\n\nid: 3\ndata: c\n\nid: \ndata: d\n\n",
             expected: [.init(data: "a", id: "1"), .init(data: "b"), .init(data: "c", id: "3"), .init(data: "d")]),
        Case(name: "id committed without data", stream: "id: 5\n\ndata: a\n\n", expected: [.init(data: "a", id: "5")]),
        Case(name: "partial event discarded at EOF", stream: "data: a\n\ndata: b\n", expected: [.init(data: "a")]),
        Case(name: "partial line discarded at EOF", stream: "data: a\n\ndata: b", expected: [.init(data: "a")]),
        Case(name: "multi-byte UTF-8", stream: "data: €豆腐\n\n", expected: [.init(data: "€豆腐")]),
        Case(name: "leading BOM dropped", stream: "\u{FEFF}data: a\n\n", expected: [.init(data: "a")]),
        Case(name: "only one BOM dropped", stream: "\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n", expected: [.init(data: "b")]),
        Case(name: "BOM inside data kept", stream: "data: a\n\ndata: \u{FEFF}b\n\n",
             expected: [.init(data: "a"), .init(data: "\u{FEFF}b")]),
    ]

    /// Splits the stream's bytes into chunks of `size` (0 = one chunk) and parses them, then ends the stream.
    static func parse(_ stream: String, chunkSize size: Int) -> (events: [ServerSentEvent], parser: SSEParser) {
        var parser = SSEParser()
        let bytes = Array(stream.utf8)
        var events: [ServerSentEvent] = []
        let step = size == 0 ? max(bytes.count, 1) : size
        var start = 0
        while start < bytes.count {
            events += parser.consume(bytes[start..<min(start + step, bytes.count)])
            start += step
        }
        parser.finish()
        return (events, parser)
    }

    static func summary(_ events: [ServerSentEvent]) -> [Expected] {
        events.map { Expected(data: $0.data, event: $0.event, id: $0.id) }
    }

    @Test(arguments: cases, [0, 1, 2])
    func lfCases(_ test: Case, chunkSize: Int) {
        #expect(Self.summary(Self.parse(test.stream, chunkSize: chunkSize).events) == test.expected)
    }

    @Test(arguments: cases, [0, 1, 2])
    func crlfCases(_ test: Case, chunkSize: Int) {
        let stream = test.stream.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(Self.summary(Self.parse(stream, chunkSize: chunkSize).events) == test.expected)
    }

    @Test(arguments: cases, [0, 1, 2])
    func crCases(_ test: Case, chunkSize: Int) {
        let stream = test.stream.replacingOccurrences(of: "\n", with: "\r")
        #expect(Self.summary(Self.parse(stream, chunkSize: chunkSize).events) == test.expected)
    }

    @Test func crEndingAChunkAndLFStartingTheNext() {
        var parser = SSEParser()
        var events = parser.consume(Array("data: a\r".utf8))
        events += parser.consume(Array("\ndata: b\r\n".utf8))
        #expect(events.isEmpty)
        events += parser.consume(Array("\r".utf8))
        events += parser.consume(Array("\n".utf8))
        #expect(events.map(\.data) == ["a\nb"])
    }

    @Test func bomSplitByteByByteIsDropped() {
        var parser = SSEParser()
        var events: [ServerSentEvent] = []
        for byte in Array("\u{FEFF}data: a\n\n".utf8) { events += parser.consume([byte]) }
        #expect(events.map(\.data) == ["a"])
    }

    @Test func partialBOMIsContent() {
        // EF BB then 'x': not a BOM, so the bytes stay and decode as replacement characters in the field name.
        var parser = SSEParser()
        let events = parser.consume([0xEF, 0xBB] + Array("data: a\n\ndata: b\n\n".utf8))
        #expect(events.map(\.data) == ["b"])
    }

    @Test(arguments: [
        ("retry: 1500\ndata: a\n\n", 1500 as Int?),
        ("retry:0\ndata: a\n\n", 0),
        ("retry: 15x\ndata: a\n\n", nil),
        ("retry: -1\ndata: a\n\n", nil),
        ("retry: 1.5\ndata: a\n\n", nil),
        ("retry: +5\ndata: a\n\n", nil),
        ("retry:\ndata: a\n\n", nil),
        ("retry:  5\ndata: a\n\n", nil),
    ])
    func retryNeedsDigitsOnly(stream: String, milliseconds: Int?) {
        let (events, parser) = Self.parse(stream, chunkSize: 1)
        let expected = milliseconds.map { Duration.milliseconds($0) }
        #expect(parser.reconnectionTime == expected)
        #expect(events.first?.retry == expected)
    }

    @Test func retryWithoutDataStillSetsTheReconnectionTime() {
        let (events, parser) = Self.parse("retry: 250\n\n", chunkSize: 0)
        #expect(events.isEmpty)
        #expect(parser.reconnectionTime == .milliseconds(250))
    }

    @Test func finishKeepsCommittedIDButDropsUncommitted() {
        var parser = SSEParser()
        _ = parser.consume(Array("id: 1\ndata: a\n\nid: 2\ndata: b\n".utf8))
        parser.finish()
        #expect(parser.lastEventID == "1")
        let events = parser.consume(Array("\u{FEFF}data: c\n\n".utf8))
        #expect(events.map(\.id) == ["1"])
        #expect(events.map(\.data) == ["c"])
    }
}
