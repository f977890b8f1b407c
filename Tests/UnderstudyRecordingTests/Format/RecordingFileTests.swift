import Testing
import UnderstudyJSON
@testable import UnderstudyRecording

@Suite struct RecordingFileTests {
    @Test func writesAReviewableFileAndReadsItBack() throws {
        let request = RecordedExchange.Request(method: "get", path: "/products/search", query: [.init("q", "phone"), .init("limit", "2")],
                                               headers: [.init("Accept", "application/json")])
        let responses = [
            RecordedExchange.Response(status: 200, headers: [.init("Content-Type", "application/json")], body: Array(#"{"products":[],"total":0}"#.utf8)),
            RecordedExchange.Response(status: 503, headers: [.init("Content-Type", "text/plain")], body: Array("try later\n".utf8)),
            RecordedExchange.Response(status: 200, headers: [.init("Content-Type", "image/png")], body: [0x89, 0x50, 0x00, 0xFF]),
        ]
        let bytes = RecordingFile.encode(request, responses)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text == """
        {
          "request": {
            "method": "GET",
            "path": "/products/search",
            "query": [
              ["q", "phone"],
              ["limit", "2"]
            ],
            "headers": [
              ["Accept", "application/json"]
            ]
          },
          "responses": [
            {
              "status": 200,
              "headers": [
                ["Content-Type", "application/json"]
              ],
              "bodyEncoding": "json",
              "body": {
                "products": [],
                "total": 0
              }
            },
            {
              "status": 503,
              "headers": [
                ["Content-Type", "text/plain"]
              ],
              "bodyEncoding": "text",
              "body": "try later\\n"
            },
            {
              "status": 200,
              "headers": [
                ["Content-Type", "image/png"]
              ],
              "bodyEncoding": "base64",
              "body": "iVAA/w=="
            }
          ]
        }

        """)
        let (readRequest, readResponses) = try RecordingFile.decode(bytes, file: "x.json")
        #expect(readRequest == request)
        #expect(readResponses == responses)
    }

    @Test func textThatLooksLikeJSONStaysText() {
        let stored = BodyKind.stored(Array("42".utf8), contentType: "text/plain")
        #expect(stored.kind == .text)
        #expect(BodyKind.stored(Array("42".utf8), contentType: nil).kind == .json)
        #expect(BodyKind.stored(Array("{oops".utf8), contentType: "application/json").kind == .text)
    }

    /// A WebSocket's 101 keeps its conversation: text as text, binary as base64, times in whole milliseconds.
    @Test func aSocketsConversationIsWrittenAndReadBack() throws {
        let request = RecordedExchange.Request(method: "GET", path: "/live")
        let messages = [
            RecordedSocketMessage(.server, text: #"{"hello":true}"#, milliseconds: 100.4),
            RecordedSocketMessage(.client, text: "subscribe", milliseconds: 250),
            RecordedSocketMessage(.server, data: [0, 1, 2, 255], isBinary: true, milliseconds: 300),
        ]
        let bytes = RecordingFile.encode(request, [RecordedExchange.Response(status: 101, messages: messages)])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"""
                  "from": "server",
                  "at": 100,
                  "text": "{\"hello\":true}"
        """#), "\(text)")
        #expect(text.contains(#""base64": "AAEC/w==""#))
        let (_, responses) = try RecordingFile.decode(bytes, file: "GET/live.json")
        var expected = messages
        expected[0].milliseconds = 100
        #expect(responses == [RecordedExchange.Response(status: 101, messages: expected)])
    }

    /// A conversation cut at the recording's limit says how many messages it left out; absent, none were.
    @Test func messagesLeftOutAreWrittenAndReadBack() throws {
        let request = RecordedExchange.Request(method: "GET", path: "/live")
        let cut = RecordedExchange.Response(status: 101, messages: [RecordedSocketMessage(.server, text: "a", milliseconds: 0)],
                                            messagesLeftOut: 3)
        let bytes = RecordingFile.encode(request, [cut])
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""messagesLeftOut": 3"#))
        #expect(try RecordingFile.decode(bytes, file: "GET/live.json").1 == [cut])
        let whole = RecordingFile.encode(request, [RecordedExchange.Response(status: 101)])
        #expect(!String(decoding: whole, as: UTF8.self).contains("messagesLeftOut"))
        let negative = #"{"request": {"method": "GET", "path": "/s"}, "responses": [{"status": 101, "messagesLeftOut": -1}]}"#
        expectRefusal(negative, file: "GET/s.json", startingWith: "GET/s.json:1:",
                      reason: #""messagesLeftOut" must be a whole number, 0 or more"#)
    }

    @Test(arguments: [
        (#"[{"from": "browser", "at": 0, "text": "x"}]"#, #""from" must be "client" or "server", not "browser""#),
        (#"[{"from": "client", "at": -1, "text": "x"}]"#, #""at" must be the milliseconds since the socket opened"#),
        (#"[{"from": "client", "at": 0}]"#, #"a message needs its payload as a "text" string or a "base64" string"#),
        (#"{"from": "client"}"#, #""messages" must be an array of messages"#),
    ])
    func aBrokenMessageIsReportedWithItsPlace(messages: String, reason: String) {
        let text = #"{"request": {"method": "GET", "path": "/s"}, "responses": [{"status": 101, "messages": \#(messages)}]}"#
        expectRefusal(text, file: "GET/s.json", startingWith: "GET/s.json:1:", reason: reason)
    }

    @Test(arguments: [
        ("{\n  \"request\": {\n    \"method\": \"GET\",\n    \"path\": \"/a\"\n  },\n  \"responses\": [\n    {\"status\": 200,}\n  ]\n}", 7, 20, "expected a string key"),
        ("{\n  \"request\": {\"method\": \"GET\", \"path\": \"/a\"},\n  \"responses\": [{\"status\": \"200\"}]\n}", 3, 28, "the status must be an integer"),
        ("{\n  \"request\": {\"method\": \"GET\"},\n  \"responses\": []\n}", 2, 14, "has no \"path\""),
        ("{\"request\": {\"method\": \"GET\", \"path\": \"/a\"}, \"responses\": []}", 1, 59, "holds no response"),
        ("{\"request\": {\"method\": \"GET\", \"path\": \"/a\"}, \"responses\": [{\"status\": 200, \"bodyEncoding\": \"base64\", \"body\": \"!!\"}]}", 1, 110, "not valid base64"),
        ("{\"request\": {\"method\": \"GET\", \"path\": \"a\"}, \"responses\": [{\"status\": 200}]}", 1, 39, "must start with '/'"),
    ])
    func reportsFileLineColumnAndReason(text: String, line: Int, column: Int, reason: String) {
        expectRefusal(text, file: "GET/a.json", startingWith: "GET/a.json:\(line):\(column): ", reason: reason)
    }

    /// Decoding `text` as `file` fails with a description starting with `place` and a reason containing `reason`.
    private func expectRefusal(_ text: String, file: String, startingWith place: String, reason: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try RecordingFile.decode(Array(text.utf8), file: file)
            Issue.record("decoded a broken file", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description.hasPrefix(place), "\(error)", sourceLocation: sourceLocation)
            #expect(error.reason.contains(reason), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func namesFilesPortablyAndStably() {
        let rules = KeyRules(options: RecordingOptions())
        func stem(_ method: String, _ path: String, query: [RecordedExchange.QueryItem] = [], body: String = "") -> String {
            RecordingFileName.stem(for: RequestKey(.init(method: method, path: path, query: query, body: Array(body.utf8)), rules: rules))
        }
        #expect(stem("GET", "/products/1") == "GET/products/1")
        #expect(stem("GET", "/") == "GET/index")
        #expect(stem("GET", "/products/") == "GET/products/index")
        #expect(stem("GET", "/../etc/pass wd") == "GET/_./etc/pass_wd")
        #expect(stem("GET", "/con") == "GET/_con")
        #expect(stem("GET", "/caf%C3%A9/ü") == "GET/caf_C3_A9/_")
        let withQuery = stem("GET", "/products", query: [.init("limit", "5"), .init("skip", "10")])
        #expect(withQuery.hasPrefix("GET/products~") && withQuery.count == "GET/products~".count + 8)
        // The order of the query and the whitespace of a JSON body do not change the name.
        #expect(withQuery == stem("GET", "/products", query: [.init("skip", "10"), .init("limit", "5")]))
        #expect(stem("POST", "/auth/login", body: #"{"a":1,"b":2}"#) == stem("POST", "/auth/login", body: #"{ "b": 2, "a": 1 }"#))
        #expect(RecordingFileName.path(stem: "GET/a", number: 1) == "GET/a.json")
        #expect(RecordingFileName.path(stem: "GET/a", number: 2) == "GET/a-2.json")
    }

    @Test func manifestRoundTripsAndRejectsAnotherFormat() throws {
        let options = RecordingOptions(ignoredQueryParameters: ["_"], redactedFields: ["sessionKey"], redacts: false)
        #expect(try RecordingManifest.decode(RecordingManifest.encode(options), file: "m") == options)
        #expect(throws: RecordingError(file: "m", line: 1, column: 12, reason: "this recording's format is 2, but this Understudy reads format 1")) {
            try RecordingManifest.decode(Array(#"{"format": 2}"#.utf8), file: "m")
        }
    }
}
