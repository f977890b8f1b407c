import Foundation
import Testing
@testable import UnderstudyRecording
import UnderstudyJSON

/// The HAR reader on the three exporters' shapes (fixtures/har) and on files it must refuse.
@Suite struct HARArchiveTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/har")

    static func archive(_ name: String) throws -> HARArchive {
        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent("\(name).har")))
        return try HARArchive.read(bytes)
    }

    static func read(_ text: String) throws(HARReadError) -> HARArchive {
        try HARArchive.read(Array(text.utf8))
    }

    /// One entry in a HAR log, for the cases that need a single odd entry.
    static func log(entry: String, creator: String = "Tester") -> String {
        #"{"log": {"version": "1.2", "creator": {"name": "\#(creator)", "version": "1"}, "entries": [\#(entry)]}}"#
    }

    @Test func chromesExportImportsEveryExchangeAndListsTheRest() throws {
        let archive = try Self.archive("chrome")
        #expect(archive.exporter.kind == .chrome)
        #expect(archive.exchanges.map(\.summary) == [
            "POST /api/auth/login", "GET /api/auth/me", "GET /api/products/search?q=phone&limit=2", "GET /api/avatars/1.png",
            "GET /api/robots.txt", "POST /api/carts/add", "GET /api/products/9999", "GET /api/products/1",
            "GET /api/products/1", "DELETE /api/carts/51", "GET /api/catalogue", "GET /api/live",
        ])
        #expect(archive.skipped.map(\.entryIndex) == [12])
        #expect(archive.skipped[0].reason == "it got no response (status 0: net::ERR_CONNECTION_RESET)")

        let login = archive.exchanges[0]
        // HTTP/2 pseudo-headers go; the body stays as sent.
        #expect(!login.recorded.request.headers.contains { $0.name.hasPrefix(":") })
        #expect(String(decoding: login.recorded.request.body, as: UTF8.self).contains("chrome-pass-4417"))
        // content.text is the decoded body, so the wire's encoding goes with the wire.
        #expect(login.recorded.response.headers.value(for: "content-encoding") == nil)
        #expect(login.recorded.response.headers.value(for: "set-cookie") != nil)

        let avatar = archive.exchanges[3]
        #expect(avatar.recorded.response.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(avatar.recorded.response.headers.value(for: "content-type") == "image/png")
        #expect(String(decoding: archive.exchanges[4].recorded.response.body, as: UTF8.self).hasPrefix("User-agent: *\n"))
        #expect(archive.exchanges[6].recorded.response.status == 404)
        #expect(archive.exchanges[9].recorded.response.status == 204 && archive.exchanges[9].recorded.response.body.isEmpty)
        #expect(archive.exchanges[10].recorded.response.headers.value(for: "location") == "/api/products")
    }

    /// Chrome's `_webSocketMessages` become the socket's recorded conversation: who sent each message, text or
    /// binary (base64 in the file), and when, in milliseconds from the entry's `startedDateTime`.
    @Test func chromesWebSocketMessagesBecomeARecordedConversation() throws {
        let socket = try #require(try Self.archive("chrome").exchanges.first { $0.entryIndex == 11 })
        #expect(socket.origin == "wss://shop.example.com")
        #expect(socket.recorded.request.method == "GET" && socket.recorded.request.path == "/api/live")
        #expect(!socket.recorded.request.headers.contains { $0.name.hasPrefix(":") })
        #expect(socket.recorded.response.status == 101)
        let messages = socket.recorded.response.messages
        #expect(messages.map(\.sender) == [.server, .client, .server, .server])
        #expect(messages.map { ($0.milliseconds).rounded() } == [100, 250, 300, 400])
        #expect(messages.map(\.isBinary) == [false, false, false, true])
        #expect(String(decoding: messages[0].data, as: UTF8.self) == #"{"hello":true}"#)
        #expect(messages[3].data == [0x00, 0x01, 0x02, 0xFF])
    }

    @Test func pulsesExportDropsItsCopiesAndItsLossyImage() throws {
        let archive = try Self.archive("pulse")
        #expect(archive.exporter.kind == .pulse)
        #expect(archive.exchanges.map(\.summary) == [
            "POST /api/auth/login", "GET /api/auth/me", "GET /api/products?limit=3&skip=3", "GET /api/version",
            "POST /api/carts/add", "GET /api/users/404", "GET /api/notifications", "GET /api/notifications",
            "DELETE /api/carts/52",
        ])
        let reasons = Dictionary(uniqueKeysWithValues: archive.skipped.map { ($0.entryIndex, $0.reason) })
        #expect(reasons[3]?.contains("U+FFFD") == true)
        #expect(reasons[10]?.contains("no response") == true)
        #expect(reasons[11] == "a copy of entry 0 (Pulse lists a task again under the log message that carries it)")
        #expect(reasons[12]?.hasPrefix("a copy of entry 1") == true)
        // Pulse writes no postData: the login is imported without its body, and says so.
        #expect(archive.exchanges[0].recorded.request.body.isEmpty)
        #expect(archive.exchanges[0].notes == ["Pulse's HAR export leaves out request bodies; imported without one"])
        #expect(archive.exchanges[8].recorded.response.body.isEmpty)
    }

    @Test func proxymansExportDecodesBase64BodiesAndRebuildsForms() throws {
        let archive = try Self.archive("proxyman")
        #expect(archive.exporter.kind == .proxyman)
        #expect(archive.exchanges.count == 12)
        #expect(archive.skipped.map(\.entryIndex) == [12])
        #expect(archive.skipped[0].reason.hasPrefix("a CONNECT tunnel"))
        #expect(archive.skipped[0].request == "CONNECT https://analytics.example.net:443")

        let form = try #require(archive.exchanges.first { $0.recorded.request.path == "/v1/newsletter" })
        #expect(String(decoding: form.recorded.request.body, as: UTF8.self) == "email=ada%40example.org&topics=news+%26+offers")
        #expect(form.notes == ["the request body was rebuilt from postData.params"])
        let upload = try #require(archive.exchanges.first { $0.recorded.request.path == "/v1/me/avatar" })
        #expect(upload.recorded.request.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let me = try #require(archive.exchanges.first { $0.recorded.request.path == "/v1/me" })
        #expect(me.recorded.response.headers.value(for: "Content-Encoding") == nil)
        #expect(me.milliseconds == 63)
    }

    @Test func aPulseCopyNamesTheEntryItCopiesWhereverItSits() throws {
        func entry(_ path: String, page: Int) -> String {
            #"{"pageref": "page_\#(page)", "request": {"method": "GET", "url": "https://x.test\#(path)"}, "response": {"status": 200}}"#
        }
        let entries = [entry("/a", page: 0), entry("/a", page: 9), entry("/b", page: 1), entry("/b", page: 9)]
        let archive = try Self.read(Self.log(entry: entries.joined(separator: ","), creator: "Pulse HAR generation tool"))
        #expect(archive.exchanges.map(\.entryIndex) == [0, 2])
        #expect(archive.skipped.map { $0.reason.prefix(17) } == ["a copy of entry 0", "a copy of entry 2"])
        // Only Pulse writes copies: elsewhere two identical entries are a sequence.
        #expect(try Self.read(Self.log(entry: entries.joined(separator: ","))).exchanges.count == 4)
    }

    @Test func aFileThatIsNotJSONSaysWhere() {
        let error = #expect(throws: HARReadError.self) { try Self.read("{\"log\": {\n  \"entries\": [,]}}") }
        #expect(error?.description == "not JSON: line 2, column 15: unexpected ',', expected a value")
    }

    @Test(arguments: [
        ("[]", "not a HAR file: expected an object with a \"log\" at the top level, found array"),
        ("{\"version\": \"1.2\"}", "not a HAR file: no \"log\" object at the top level"),
        ("{\"log\": []}", "not a HAR file: \"log\": expected an object, found array"),
        ("{\"log\": {\"version\": \"1.2\"}}", "not a HAR file: \"log\" has no \"entries\" array"),
        ("{\"log\": {\"entries\": {}}}", "not a HAR file: \"log.entries\": expected an array, found object"),
    ])
    func jsonThatIsNotAHARLogIsRefused(text: String, message: String) {
        do {
            _ = try Self.read(text)
            Issue.record("read \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aBodyMarkedBase64ThatIsNotIsSkippedWithWhereItBreaks() throws {
        let entry = #"""
            {"request": {"method": "GET", "url": "https://x.test/a.png", "headers": []},
             "response": {"status": 200, "headers": [], "content": {"mimeType": "image/png", "encoding": "base64", "text": "iVBO*w0K"}}}
            """#
        let archive = try Self.read(Self.log(entry: entry))
        #expect(archive.exchanges.isEmpty)
        #expect(archive.skipped.map(\.description) == [
            "entry 0 (GET https://x.test/a.png): its response body is marked base64 but is not: a character that is "
                + "not base64 at character 5",
        ])
    }

    @Test(arguments: [
        (#"{"request": {"method": "GET", "url": "data:text/plain,hi"}, "response": {"status": 200}}"#, "not an HTTP URL (data:), so no server was asked"),
        (#"{"response": {"status": 200}}"#, "it has no request"),
        (#"{"request": {"method": "GET", "url": "/relative"}, "response": {"status": 200}}"#, "'/relative' is not an absolute URL"),
        (#"{"request": {"method": "GET", "url": "https://x.test/"}, "response": {"status": 200, "content": {"size": 120, "mimeType": "application/json"}}}"#,
         "the exporter did not keep its body (content.size 120, no content.text); save the HAR with content, or import it with --headers-only"),
        (#"{"request": {"method": "GET", "url": "https://x.test/"}, "response": {"status": 200, "content": {"text": "eA==", "encoding": "gzip"}}}"#,
         "its response body has encoding 'gzip', which is not base64"),
        (#"{"request": {"method": "POST", "url": "https://x.test/up", "postData": {"mimeType": "multipart/form-data; boundary=x", "params": [{"name": "f", "fileName": "a.png"}]}}, "response": {"status": 200}}"#,
         "its request body (multipart/form-data; boundary=x) is given only as params, from which the body cannot be rebuilt"),
        (#"{"request": {"method": "GET", "url": "https://x.test/"}, "response": {"status": 999}}"#, "status 999 is not an HTTP status"),
        (#"{"request": {"method": "GET", "url": "https://x.test/"}, "response": {"status": 304, "content": {"size": 120}}}"#,
         "a 304 revalidating the browser's cache: the replay answers If-None-Match itself"),
        ("42", "expected an entry object, found number"),
    ])
    func anEntryItCannotUseIsListedWithItsReason(entry: String, reason: String) throws {
        let archive = try Self.read(Self.log(entry: entry))
        #expect(archive.exchanges.isEmpty)
        #expect(archive.skipped.map(\.reason) == [reason])
    }

    @Test func theQueryComesFromTheURLAndFromQueryStringOnlyWhenTheURLHasNone() throws {
        let entries = #"""
            {"request": {"method": "GET", "url": "https://x.test/a?b=1&c=two%20words#frag", "queryString": [{"name": "z", "value": "9"}]}, "response": {"status": 200}},
            {"request": {"method": "get", "url": "https://x.test/b", "queryString": [{"name": "q", "value": "a b&c"}]}, "response": {"status": 200}},
            {"request": {"method": "GET", "url": "https://x.test"}, "response": {"status": 200}}
            """#
        let archive = try Self.read(Self.log(entry: entries))
        #expect(archive.exchanges.map(\.summary) == ["GET /a?b=1&c=two%20words", "GET /b?q=a%20b%26c", "GET /"])
        #expect(archive.exchanges[0].recorded.request.query == [.init("b", "1"), .init("c", "two words")])
        #expect(archive.exchanges[1].recorded.request.query == [.init("q", "a b&c")])
        #expect(archive.exchanges[1].notes == ["the URL has no query, so it was taken from queryString"])
    }

    @Test func aBinaryRequestBodyInBase64AndAUTF8BOMAreRead() throws {
        let entry = #"""
            {"request": {"method": "PUT", "url": "https://x.test/blob", "postData": {"mimeType": "application/octet-stream", "encoding": "base64", "text": "AAEC\r\n/w=="}},
             "response": {"status": 200, "content": {"size": 0, "mimeType": "text/plain", "text": ""}}}
            """#
        let archive = try HARArchive.read([0xEF, 0xBB, 0xBF] + Array(Self.log(entry: entry).utf8))
        #expect(archive.exchanges.first?.recorded.request.body == [0, 1, 2, 255])
        #expect(archive.exchanges.first?.recorded.request.headers.value(for: "content-type") == "application/octet-stream")
    }

    @Test(arguments: [("", [UInt8]()), ("TQ", [77]), ("TWE=", [77, 97]), ("TWFu", [77, 97, 110])])
    func base64DecodesWithOrWithoutPadding(text: String, bytes: [UInt8]) {
        #expect(HARBody.base64(text) == .success(bytes))
    }

    @Test(arguments: [("T", 1), ("TWFuT", 5), ("TQ==TQ", 5), ("TW-u", 3)])
    func base64ThatIsNotSaysWhere(text: String, position: Int) {
        guard case .failure(let error) = HARBody.base64(text) else {
            Issue.record("decoded \(text)")
            return
        }
        #expect(error.position == position)
    }
}
