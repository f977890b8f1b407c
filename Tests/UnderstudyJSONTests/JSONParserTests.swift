import Testing
@testable import UnderstudyJSON

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderAndNumberText() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":[true,null,"x"],"c":9.99,"d":10.0,"e":-0.5e1}"#)
        guard case .object(let object) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(object.keys == ["b", "a", "c", "d", "e"])
        #expect(String(decoding: value.jsonBytes, as: UTF8.self) == #"{"b":1,"a":[true,null,"x"],"c":9.99,"d":10,"e":-5}"#)
    }

    /// Whole numbers past 2^53 as `JSON.stringify` prints them, digits below 10^21 and an exponent from there (digits
    /// written without trailing zeros are kept as written).
    @Test(arguments: [("9223372036854776000", "9223372036854776000"), ("-1.2e19", "-12000000000000000000"),
                      ("12345678901234567", "12345678901234567"), ("1e20", "100000000000000000000"),
                      ("1e21", "1e+21"), ("1.5e16", "15000000000000000")])
    func largeWholeNumbersKeepTheirDigits(text: String, written: String) throws {
        #expect(String(decoding: try JSONParser.parse(text).jsonBytes, as: UTF8.self) == written)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#"["a\"b\\c\/d\n\u00e9\ud83d\ude00"]"#)
        #expect(value == .array([.string("a\"b\\c/d\né😀")]))
        #expect(String(decoding: value.jsonBytes, as: UTF8.self) == #"["a\"b\\c/d\né😀"]"#)
    }

    /// Text is checked as UTF-8 wherever it is not ASCII, with and without escapes before the bad byte.
    @Test func stringsMustBeUTF8() throws {
        #expect(try JSONParser.parse(Array("[\"caf\u{e9}\\n\u{1F600}\"]".utf8)) == .array([.string("café\n😀")]))
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(throws: (any Error).self) { try JSONParser.parse(bytes) }
        }
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8, "expected a string key"),
        ("[1,2", 1, 5, "expected ',' or ']'"),
        ("{\n  \"a\": tru\n}", 2, 8, "expected a value"),
        ("\"abc", 1, 1, "unterminated string"),
        ("01", 1, 2, "leading zeros"),
        ("[1] x", 1, 5, "after the end of the document"),
        ("", 1, 1, "empty"),
        ("\"\\x\"", 1, 3, "invalid escape"),
        ("[\"\\ud800\"]", 1, 9, "unpaired UTF-16 surrogate"),
    ])
    func reportsWhereAndWhat(text: String, line: Int, column: Int, reason: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("parsed invalid JSON: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
    }

    @Test func locatesAValueByPath() throws {
        let text = Array("[\n  {\"id\": 1},\n  {\"id\": 2, \"price\": \"x\"}\n]".utf8)
        let position = try #require(JSONParser.position(of: [.index(1), .key("price")], in: text))
        #expect(position.line == 3)
        #expect(position.column == 22)
    }

    @Test func writesControlCharactersAsJSONStringifyDoes() {
        #expect(String(decoding: JSONValue.string("a\u{01}\t").jsonBytes, as: UTF8.self) == #""a\u0001\t""#)
    }
}
