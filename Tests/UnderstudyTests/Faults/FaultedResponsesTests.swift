import Testing
@testable import Understudy
import UnderstudyJSON

@Suite struct FaultedResponsesTests {
    @Test func brokenSyntaxIsNeverJSON() {
        let body = Array(#"{"id":1,"title":"x"}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(FaultedResponses.brokenSyntax(body)) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(FaultedResponses.brokenSyntax([])) }
    }

    @Test func wrongShapeTurnsPricesIntoStringsOrDropsAKey() throws {
        let list = try JSONParser.parse(#"{"products":[{"id":1,"price":9.99}],"total":1}"#)
        #expect(String(decoding: FaultedResponses.wrongShape(list).jsonBytes, as: UTF8.self)
            == #"{"products":[{"id":1,"price":"9.99"}],"total":1}"#)
        let login = try JSONParser.parse(#"{"accessToken":"a","id":1}"#)
        #expect(String(decoding: FaultedResponses.wrongShape(login).jsonBytes, as: UTF8.self) == #"{"id":1}"#)
        let array = try JSONParser.parse(#"["beauty"]"#)
        #expect(String(decoding: FaultedResponses.wrongShape(array).jsonBytes, as: UTF8.self) == #"{"items":["beauty"]}"#)
    }

    @Test func statusRepliesCarryDummyJSONsWords() {
        let spec = FaultSpec()
        #expect(FaultedResponses.status(401, spec: spec, nowSeconds: 100).headers["WWW-Authenticate"] == nil)
        let tooMany = FaultedResponses.status(429, spec: spec, nowSeconds: 100)
        #expect(tooMany.headers["X-RateLimit-Remaining"] == "0")
        #expect(tooMany.headers["X-RateLimit-Reset"] == "110")
        #expect(String(decoding: tooMany.body.bytesCopy, as: UTF8.self) == #"{"message":"request limit exceeded, please wait a few seconds"}"#)
        #expect(FaultedResponses.status(204, spec: spec, nowSeconds: 100).body.count == 0)
    }
}
