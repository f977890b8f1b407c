import Testing
@testable import Understudy

@Suite struct ListQueryTests {
    private func parse(_ query: String) throws(APIError) -> ListQuery {
        try ListQuery.parse(QueryParameters(Substring(query)))
    }

    @Test func defaults() throws {
        let query = try parse("")
        #expect(query.limit == 30)
        #expect(query.skip == 0)
        #expect(query.search == "")
        #expect(query.select == nil)
        #expect(query.sortBy == nil)
        #expect(query.delayMilliseconds == 0)
    }

    @Test(arguments: [
        ("limit=abc", "Invalid 'limit' - must be a number"),
        ("limit=1&limit=2", "Invalid 'limit' - must be a number"),
        ("limit=12abc", "Invalid 'limit' - must be a number"),
        ("skip=x", "Invalid 'skip' - must be a number"),
        ("q=a&q=b", "Invalid 'q' - must be a string"),
        ("sortBy=price&order=up", "Order can be: 'asc' or 'desc'"),
        ("delay=abc", "Delay must be a number in milliseconds"),
        ("delay=5001", "Delay cannot be greater than 5 seconds"),
        ("delay=-1", "Delay cannot be less than 0"),
    ])
    func rejectsWithDummyJSONsMessage(query: String, message: String) {
        #expect(throws: APIError(400, message)) { try parse(query) }
    }

    @Test func readsNumbersTheWayJavaScriptDoes() throws {
        #expect(try parse("limit=1.9").limit == 1)
        #expect(try parse("limit=").limit.isNaN)
        #expect(try parse("limit=1e3").limit == 1)
        #expect(try parse("limit=0x10").limit == 16)
        #expect(try parse("limit=%2012%20").limit == 12)
        #expect(try parse("limit=-3").limit == -3)
        #expect(try parse("limit=99999999999999999999").limit == 1e20)
        #expect(try parse("skip=").skip.isNaN)
        #expect(try parse("delay=1.5").delayMilliseconds == 1)
        #expect(try parse("delay=").delayMilliseconds == 0)
    }

    @Test func orderIsCheckedOnlyWithSortBy() throws {
        #expect(try parse("order=sideways").order == .ascending)
        #expect(try parse("sortBy=title&order=DESC").order == .descending)
        #expect(try parse("sortBy=title").order == .ascending)
    }

    @Test func normalisesSearchAndSelect() throws {
        #expect(try parse("q=%20Phone-Case%20").search == "phone case")
        #expect(try parse("q[valueSearch]=LAMP").search == "lamp")
        #expect(try parse("select=title,price").select == ["id", "title", "price"])
        #expect(try parse("select=title&select=id&select=price").select == ["id", "title", "price"])
        #expect(try parse("select=").select == ["id"])
    }

    @Test func decodesQueryStringsLikeExpress() {
        let query = QueryParameters("a=1+2&b=%E2%82%AC&c&d=%zz&e=%")
        #expect(query["a"] == "1 2")
        #expect(query["b"] == "€")
        #expect(query["c"] == "")
        #expect(query["d"] == "%zz")
        #expect(query["e"] == "%")
    }

    /// A raw combining mark right after `&` or `=` joins the separator into one Character; the split is on bytes.
    @Test func separatorsBeforeCombiningMarksStillSplit() {
        let query = QueryParameters("a=1&\u{05B9}b=2&c=\u{0301}x")
        #expect(query.pairs.map(\.name) == ["a", "\u{05B9}b", "c"])
        #expect(query["c"] == "\u{0301}x")
        let request = HTTPRequest(method: "GET", target: "/products?\u{0301}q=1")
        #expect(request.path == "/products")
        #expect(request.query.pairs.map(\.name) == ["\u{0301}q"])
    }

    @Test func jsNumberAndParseIntDiffer() {
        #expect(JSNumber.number("") == 0)
        #expect(JSNumber.parseInt("").isNaN)
        #expect(JSNumber.number("1e3") == 1_000)
        #expect(JSNumber.parseInt("1e3") == 1)
        #expect(JSNumber.number(" 42 ") == 42)
        #expect(JSNumber.number("4 2").isNaN)
        #expect(JSNumber.number("Infinity") == .infinity)
        #expect(JSNumber.parseInt("Infinity").isNaN)
        #expect(JSNumber.number(".5") == 0.5)
        #expect(JSNumber.number("5.") == 5)
        #expect(JSNumber.number(".").isNaN)
        #expect(JSNumber.number("0b101") == 5)
        #expect(JSNumber.parseInt("-12px") == -12)
        #expect(JSNumber.number("\u{85}1").isNaN)
        #expect(JSNumber.number("\u{A0}1\u{2028}") == 1)
    }

    /// JavaScript's trim: its whitespace and line terminators at either end (not U+0085), whether the ends are
    /// printable ASCII (left as they are without a look at Unicode properties) or not.
    @Test(arguments: [("abc", "abc"), (" a b ", "a b"), ("\u{A0}a\u{2028}", "a"), ("a\u{3000}", "a"), ("", ""),
                      (" \t ", ""), ("\u{85}x\u{7F}", "\u{85}x\u{7F}"), ("é", "é"), ("\u{FEFF}é\r\n", "é")])
    func trimsJavaScriptWhitespace(_ text: String, _ trimmed: String) {
        #expect(text.trimmingJSWhitespace() == trimmed)
    }
}
