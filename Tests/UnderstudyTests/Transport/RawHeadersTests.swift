import Testing
@testable import Understudy

@Suite struct RawHeadersTests {
    @Test func decodesToTheSameFieldsInOrder() {
        let headers: HTTPHeaders = ["Host": "127.0.0.1:8080", "Accept": "*/*", "X-Empty": "", "accept": "text/html"]
        let raw = RawHeaders(headers)
        #expect(raw.decoded == headers)
        #expect(raw.count == 4)
        #expect(raw.textByteCount == headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
        #expect(raw.longestValue == "127.0.0.1:8080".utf8.count)
    }

    @Test func findsTheFirstValueCaseInsensitively() {
        let raw = RawHeaders(["Accept": "*/*", "X-Empty": "", "accept": "text/html"])
        #expect(raw["ACCEPT"] == "*/*")
        #expect(raw["x-empty"] == "")
        #expect(raw["Accept-Encoding"] == nil)
        #expect(RawHeaders()["Accept"] == nil)
    }

    @Test func keepsMultiByteValues() {
        let raw = RawHeaders(["X-Note": "Only 3 left — order soon", "X-Emoji": "🎭"])
        #expect(raw.decoded["X-Note"] == "Only 3 left — order soon")
        #expect(raw["x-emoji"] == "🎭")
    }
}
