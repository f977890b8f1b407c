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

    /// Bytes from evhttp are kept as they came and repaired only when read: invalid UTF-8 becomes U+FFFD.
    @Test func repairsInvalidUTF8WhenRead() {
        let bytes: [UInt8] = Array("X-Bad".utf8) + [0, 0x41, 0xFF, 0x42, 0]
        let block = RawHeaders.Block.make(capacity: bytes.count) { start in
            bytes.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return bytes.count
        }
        let raw = RawHeaders(block: block, count: 1, longestValue: 3)
        #expect(raw["x-bad"] == "A\u{FFFD}B")
        #expect(raw.decoded["X-Bad"] == "A\u{FFFD}B")
        #expect(raw.textByteCount == 8)
        #expect(raw == RawHeaders(block: block, count: 1, longestValue: 3))
        #expect(raw != RawHeaders(["X-Bad": "AB"]))
    }

    /// A NUL is the block's separator, so one inside a name or value is left out rather than splitting the field.
    @Test func leavesOutNULsInsideNamesAndValues() {
        let raw = RawHeaders(["X-\u{0}A": "a\u{0}b\u{0}", "X-B": "c"])
        #expect(raw.decoded == ["X-A": "ab", "X-B": "c"])
        #expect(raw.textByteCount == "X-Aab".utf8.count + "X-Bc".utf8.count)
    }

    @Test func keepsMultiByteValues() {
        let raw = RawHeaders(["X-Note": "Only 3 left — order soon", "X-Emoji": "🎭"])
        #expect(raw.decoded["X-Note"] == "Only 3 left — order soon")
        #expect(raw["x-emoji"] == "🎭")
    }
}
