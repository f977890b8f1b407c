import Testing
@testable import UnderstudyJSON

@Suite struct JSONRecordScannerTests {
    /// Each record's text, members (as key → value text) and canonical flag, or nil when the scanner declines.
    private func scan(_ document: String, wrapper: String = "items")
        -> [(text: String, members: [(String, String)], canonical: Bool)]? {
        JSONRecordScanner.scan(Array(document.utf8), wrapperKey: wrapper) { records, members in
            records.map { record in
                let text = String(decoding: record.text, as: UTF8.self)
                let pairs = members[record.members].map { member in
                    (String(decoding: UnsafeBufferPointer(rebasing: record.text[member.key]), as: UTF8.self),
                     String(decoding: UnsafeBufferPointer(rebasing: record.text[member.value]), as: UTF8.self))
                }
                return (text, pairs, record.canonical)
            }
        }
    }

    @Test func recordsComeOutAsTheWriterWritesThem() throws {
        let document = """
            \u{FEFF}[ { "id" : 1, "name": "A \\"quoted\\" lamp", "tags": [ "x", "y" ], "dims": { "w": 2.5, "h": -3 } },
              {"id":2,"ok":true,"none":null,"nested":[[],{}],"n":0.25}
            ]
            """
        let records = try #require(scan(document))
        #expect(records.count == 2)
        for record in records {
            // The scanner's text is the writer's text of the parsed record, byte for byte.
            let parsed = try JSONParser.parse(record.text)
            #expect(String(decoding: parsed.jsonBytes, as: UTF8.self) == record.text)
            #expect(record.canonical)
        }
        #expect(records[0].text == #"{"id":1,"name":"A \"quoted\" lamp","tags":["x","y"],"dims":{"w":2.5,"h":-3}}"#)
        #expect(records[0].members.map(\.0) == ["id", "name", "tags", "dims"])
        #expect(records[0].members.map(\.1) == ["1", #""A \"quoted\" lamp""#, #"["x","y"]"#, #"{"w":2.5,"h":-3}"#])
        #expect(records[1].members.map(\.1) == ["2", "true", "null", "[[],{}]", "0.25"])
    }

    /// A record written compact is handed over as the input itself (nothing copied), one with whitespace as a copy;
    /// each names its span of the input.
    @Test func compactRecordsAreNotCopied() throws {
        let input = Array("[{\"a\":1},\n {\"b\": 2},\n{\"c\":3}]".utf8)
        let spans = JSONRecordScanner.scan(input, wrapperKey: "items") { records, _ in
            input.withUnsafeBufferPointer { buffer in
                records.map { record in
                    (record.source, record.text.baseAddress == buffer.baseAddress! + record.source.lowerBound)
                }
            }
        }
        let found = try #require(spans)
        #expect(found.map(\.0) == [1..<8, 11..<19, 21..<28])
        #expect(found.map(\.1) == [true, false, true])
    }

    @Test(arguments: [#"1.0"#, #"1e3"#, #"-0"#, #"1234567890123456"#, #"0.10"#, #""\u00e9""#, #""a\/b""#, #""é""#])
    func valuesTheWriterWritesOtherwiseAreFlagged(_ value: String) throws {
        let records = try #require(scan("[{\"v\":\(value)}]"))
        #expect(records.map(\.canonical) == [false])
    }

    @Test(arguments: ["0", "-12", "9.99", "123456789012345", "-0.5", #""\n\t\\""#, "[]", "{}", "false"])
    func valuesTheWriterWritesAlikeAreNot(_ value: String) throws {
        let records = try #require(scan("[{\"v\":\(value)}]"))
        #expect(records.map(\.canonical) == [true])
        #expect(records.first?.members.first?.1 == value)
    }

    @Test func theWrapperKeysArrayIsRead() throws {
        let records = try #require(scan(#"{"total": 2, "items": [{"id": 1}, {"id": 2}], "skip": {"a": [1]}}"#))
        #expect(records.map(\.text) == [#"{"id":1}"#, #"{"id":2}"#])
        #expect(try #require(scan("[]")).isEmpty)
    }

    @Test(arguments: [
        "", "  ", "[", "[{}", "[{\"a\":1,}]", "[{\"a\" 1}]", "[1]", "[{}] x", "{\"other\": []}", "3",
        "{\"items\": [], \"items\": []}", "{\"items\": {}}", "[{\"a\":01}]", "[{\"a\":1.}]", "[{\"a\":-}]",
        "[{\"a\":\"\u{01}\"}]", "[{\"a\":\"\\x\"}]", "[{\"a\":tru}]", "[{\"a\":\"open}]",
    ])
    func documentsItDoesNotTakeAreDeclined(_ document: String) {
        #expect(scan(document) == nil)
    }

    @Test func deepNestingIsLeftToTheParser() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(scan("[{\"a\":\(deep)}]") == nil)
    }
}

@Suite struct CompactJSONTests {
    private let text = Array(#"{"id":7,"title":"A \"b\" c","tags":["x,y","z]"],"n":{"a":[1,{"b":"}"}]},"id":8,"t":true}"#.utf8)

    @Test func membersAndValuesAreFoundWithoutParsingTheRest() {
        text.withUnsafeBufferPointer { text in
            let members = CompactJSON.members(of: text)
            let keys = members.map { String(decoding: UnsafeBufferPointer(rebasing: text[$0.key]), as: UTF8.self) }
            #expect(keys == ["id", "title", "tags", "n", "id", "t"])
            // A repeated key is the last one, as JSON.parse keeps.
            #expect(CompactJSON.member("id", of: text).flatMap { CompactJSON.value(in: text, $0) } == .number(JSONNumber(8)))
            #expect(CompactJSON.member("title", of: text).flatMap { CompactJSON.string(in: text, $0) } == "A \"b\" c")
            #expect(CompactJSON.member("tags", of: text).flatMap { CompactJSON.value(in: text, $0) }
                    == .array([.string("x,y"), .string("z]")]))
            #expect(CompactJSON.member("t", of: text).flatMap { CompactJSON.value(in: text, $0) } == .bool(true))
            #expect(CompactJSON.member("n", of: text).flatMap { CompactJSON.string(in: text, $0) } == nil)
            #expect(CompactJSON.member("missing", of: text) == nil)
        }
    }

    @Test func anEmptyObjectHasNoMembers() {
        Array("{}".utf8).withUnsafeBufferPointer { text in
            #expect(CompactJSON.members(of: text).isEmpty)
        }
    }
}
