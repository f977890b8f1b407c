import Foundation
import Testing
@testable import UnderstudyRecording
import UnderstudyJSON
import UnderstudyTestSupport

/// The ten exporters' real HAR files (shared/har_real): what each one's quirks become, entry by entry.
@Suite struct RealHARFileTests {
    static func archive(_ name: String, _ options: HARReadOptions = HARReadOptions()) throws -> HARArchive {
        try HARArchive.read(SharedData.bytes(SharedData.har(name)), options: options)
    }

    /// Every entry is imported or listed with its reason: none is lost without a word.
    @Test(arguments: SharedData.harFiles)
    func everyEntryIsImportedOrListed(name: String) throws {
        let bytes = try SharedData.bytes(SharedData.har(name))
        let archive = try HARArchive.read(bytes)
        let document = try JSONParser.parse(bytes)
        guard case .array(let entries)? = document["log"]?["entries"] else { throw SharedDataMissing(path: name) }
        let indices = (archive.exchanges.map(\.entryIndex) + archive.skipped.map(\.entryIndex)).sorted()
        #expect(indices == Array(entries.indices))
        #expect(!archive.exchanges.isEmpty)
        for skipped in archive.skipped { #expect(skipped.reason.count > 20, "\(skipped)") }
    }

    /// Proxyman writes `"_webSocketMessages": null` on every entry: that alone is no WebSocket.
    @Test func proxymansNullWebSocketMessagesAreNoWebSocket() throws {
        let archive = try Self.archive("proxyman__mswjs-source__request-parameters.har")
        #expect(archive.skipped.isEmpty, "\(archive.skipped)")
        #expect(archive.exchanges.map(\.summary) == ["GET /docs/?hello=world&userId=abc-123"])
    }

    /// A WebSocket whose messages the file does not hold (every exporter but Chrome writes none) has nothing to replay.
    @Test(arguments: [
        #""_resourceType": "WebSocket", "response": {"status": 200, "content": {"text": "x"}}"#,
        #""_webSocketMessages": [], "response": {"status": 101, "headers": [{"name": "Upgrade", "value": "websocket"}]}"#,
    ])
    func aWebSocketWithoutMessagesIsSkippedAsOne(field: String) throws {
        let entry = #"{\#(field), "request": {"method": "GET", "url": "https://x.test/socket"}}"#
        let archive = try HARArchiveTests.read(HARArchiveTests.log(entry: entry))
        #expect(archive.skipped.map(\.reason) == [
            "a WebSocket whose messages the file does not hold (Chrome's HAR files keep them, in _webSocketMessages)",
        ])
    }

    /// Messages that are neither text nor binary, or lack a field, are left out with a note; none usable, skipped.
    @Test func aWebSocketsUnusableMessagesAreLeftOutWithANote() throws {
        let messages = #"[{"type": "send", "time": 1, "opcode": 1, "data": "hi"}, {"type": "receive", "time": 2, "opcode": 9, "data": ""}, {"type": "receive", "data": "no time"}]"#
        let entry = #"{"_webSocketMessages": \#(messages), "request": {"method": "GET", "url": "ws://x.test/socket?room=a"}}"#
        let archive = try HARArchiveTests.read(HARArchiveTests.log(entry: entry))
        let socket = try #require(archive.exchanges.first)
        #expect(socket.summary == "GET /socket?room=a")
        #expect(socket.recorded.response.messages == [RecordedSocketMessage(.client, text: "hi", milliseconds: 0)])
        #expect(socket.notes == ["2 of the socket's 3 messages had no type, time or data, or were not text or binary: left out"])

        let unusable = #"{"_webSocketMessages": [{"type": "ping", "time": 1, "data": ""}], "request": {"method": "GET", "url": "ws://x.test/s"}}"#
        let skipped = try HARArchiveTests.read(HARArchiveTests.log(entry: unusable))
        #expect(skipped.skipped.map(\.reason) == [
            "a WebSocket none of whose 1 messages is a text or binary message with a type, a time and data",
        ])
    }

    /// Firefox's cached replies without bodies are skipped with Firefox's own words, never served as empty 200s;
    /// `--headers-only` imports them empty, and says so.
    @Test func firefoxsRepliesWithoutBodiesAreSkippedOrKeptWithANote() throws {
        let name = "firefox__mitmproxy-mitmproxy__firefox.har"
        let archive = try Self.archive(name)
        let withoutBodies = archive.skipped.filter { $0.reason.contains("Response bodies are not included.") }
        #expect(withoutBodies.map(\.entryIndex) == [1, 2, 3, 4, 5])
        #expect(withoutBodies.allSatisfy { $0.reason.hasSuffix("or import it with --headers-only") })

        let kept = try Self.archive(name, HARReadOptions(keepsEntriesWithoutBodies: true))
        let logo = try #require(kept.exchanges.first { $0.entryIndex == 1 })
        #expect(logo.recorded.response.body.isEmpty)
        #expect(logo.notes.contains { $0.contains("imported with an empty body (--headers-only)") })
    }

    @Test(arguments: [
        (#""content": {"size": 120, "mimeType": "text/html"}"#, "content.size 120"),
        (#""bodySize": 88, "content": {"size": -1, "mimeType": "text/html"}"#, "bodySize 88"),
    ])
    func aBodyTheExporterDidNotKeepIsNamed(response: String, reason: String) throws {
        let entry = #"{"request": {"method": "GET", "url": "https://x.test/page"}, "response": {"status": 200, \#(response)}}"#
        let archive = try HARArchiveTests.read(HARArchiveTests.log(entry: entry))
        #expect(archive.exchanges.isEmpty)
        #expect(archive.skipped.first?.reason.contains(reason) == true, "\(archive.skipped)")
    }

    @Test func aRedirectOrAnEmptyBodyIsNoOmission() throws {
        let entries = [
            #"{"request": {"method": "GET", "url": "https://x.test/old"}, "response": {"status": 301, "redirectURL": "/new", "content": {"size": -1}}}"#,
            #"{"request": {"method": "GET", "url": "https://x.test/empty"}, "response": {"status": 200, "bodySize": 0, "content": {"size": -1}}}"#,
            #"{"request": {"method": "GET", "url": "https://x.test/none"}, "response": {"status": 200}}"#,
        ]
        let archive = try HARArchiveTests.read(HARArchiveTests.log(entry: entries.joined(separator: ",")))
        #expect(archive.skipped.isEmpty, "\(archive.skipped)")
        #expect(archive.exchanges.map(\.recorded.response.body) == [[], [], []])
    }

    /// A 304 holding the body the browser had cached, with no 200 for that request in the file, is that 200.
    @Test func aRevalidationWithItsCachedBodyIsThe200ItStoodFor() throws {
        let firefox = try Self.archive("firefox__mitmproxy-mitmproxy__firefox.har")
        let revalidated = firefox.exchanges.filter { $0.notes.contains { $0.hasPrefix("a 304 carrying the body") } }
        #expect(revalidated.map(\.entryIndex) == [0, 9, 10, 12])
        #expect(revalidated.allSatisfy { $0.recorded.response.status == 200 && !$0.recorded.response.body.isEmpty })
        let home = try #require(revalidated.first)
        #expect(String(decoding: home.recorded.response.body, as: UTF8.self).contains("mitmproxy"))

        let chrome = try Self.archive("chrome-devtools__mitmproxy-mitmproxy__chrome.har")
        #expect(chrome.exchanges.first?.recorded.response.status == 200)
        #expect(chrome.exchanges.first?.recorded.response.body.count == 23_866)
    }

    @Test func aRevalidationOfA200InTheFileIsStillSkipped() throws {
        let fresh = #"{"request": {"method": "GET", "url": "https://x.test/a"}, "response": {"status": 200, "content": {"text": "new"}}}"#
        let cached = #"{"request": {"method": "GET", "url": "https://x.test/a"}, "response": {"status": 304, "content": {"text": "old"}}}"#
        let archive = try HARArchiveTests.read(HARArchiveTests.log(entry: fresh + "," + cached))
        #expect(archive.exchanges.map(\.entryIndex) == [0])
        #expect(archive.skipped.first?.reason.contains("304 revalidating") == true)
    }

    /// By default the host most entries are on; `--host` another; `--all-hosts` every one; a tie keeps every host.
    @Test func hostsAreChosenAndTheRestListed() throws {
        let name = "chrome-devtools__sitespeedio-pagexray__run.sitespeed.io.har"
        let main = try Self.archive(name)
        #expect(main.host == "run.sitespeed.io" && main.exchanges.count == 8)
        #expect(main.skipped.map(\.entryIndex) == [1, 9])
        #expect(main.skipped.allSatisfy { $0.reason.contains("--host www.google-analytics.com") })

        let analytics = try Self.archive(name, HARReadOptions(hosts: .named("www.google-analytics.com")))
        #expect(analytics.exchanges.map(\.entryIndex) == [1, 9])
        let all = try Self.archive(name, HARReadOptions(hosts: .all))
        #expect(all.exchanges.count == 10 && all.host == nil)

        let tie = try Self.archive("mitmproxy-export__mitmproxy-mitmproxy__diff_data.har")
        #expect(tie.exchanges.count == 5 && tie.host == nil && tie.hosts.count == 5)
    }
}
