import UnderstudyWebSocket
import Testing
@testable import Understudy

/// The frame reader on what clients send, fed a byte at a time and whole: messages reassembled, control frames
/// between fragments, and each protocol error closing with the code RFC 6455 names.
@Suite struct WebSocketReaderTests {
    static let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    /// A client's frame: masked.
    static func client(_ frame: WebSocketFrame) -> [UInt8] { frame.encoded(mask: mask) }

    private func read(_ bytes: [UInt8], maximum: Int = 1 << 20, byteByByte: Bool = false) -> (events: [WebSocketReader.Event], failure: WebSocketReader.Failure?) {
        var reader = WebSocketReader(maximumMessageBytes: maximum)
        var events: [WebSocketReader.Event] = []
        if byteByByte {
            for byte in bytes { events += reader.receive([byte]) }
        } else {
            events = reader.receive(bytes)
        }
        return (events, reader.failure)
    }

    /// RFC 6455 §5.7's example: a masked "Hello".
    @Test func theRFCsMaskedHelloIsRead() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(read(bytes).events == [.message(.text, Array("Hello".utf8))])
        #expect(Self.client(WebSocketFrame(.text, Array("Hello".utf8))) == bytes)
    }

    @Test(arguments: [false, true])
    func fragmentsAreReassembledAroundAPing(byteByByte: Bool) {
        let bytes = Self.client(WebSocketFrame(fin: false, .text, Array("Hel".utf8)))
            + Self.client(WebSocketFrame(.ping, Array("?".utf8)))
            + Self.client(WebSocketFrame(fin: false, .continuation, Array("l".utf8)))
            + Self.client(WebSocketFrame(.continuation, Array("o".utf8)))
            + Self.client(WebSocketFrame(.binary, [0, 1, 2]))
            + Self.client(.close(.normal, reason: "bye"))
            + Self.client(WebSocketFrame(.text, Array("after the close".utf8)))
        let result = read(bytes, byteByByte: byteByByte)
        #expect(result.events == [.ping(Array("?".utf8)), .message(.text, Array("Hello".utf8)), .message(.binary, [0, 1, 2]),
                                  .close(.normal, "bye")])
        #expect(result.failure == nil)
    }

    @Test func lengthsOfEachEncodingAreRead() {
        for count in [0, 125, 126, 65_535, 65_536, 200_000] {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
            #expect(read(Self.client(WebSocketFrame(.binary, payload))).events == [.message(.binary, payload)], "\(count)")
        }
    }

    @Test(arguments: [
        ([0x81, 0x05] + Array("Hello".utf8), 1002, "a client's frame must be masked"),
        ([0xC1, 0x80, 0, 0, 0, 0], 1002, "a reserved bit is set, and no extension was agreed"),
        ([0x83, 0x80, 0, 0, 0, 0], 1002, "opcode 3 is reserved"),
        ([0x09, 0x80, 0, 0, 0, 0], 1002, "a control frame must not be fragmented"),
        ([0x89, 0xFE, 0x00, 0x7E, 0, 0, 0, 0], 1002, "a control frame's payload is over 125 bytes"),
        ([0x80, 0x80, 0, 0, 0, 0], 1002, "a continuation frame with no message to continue"),
        ([0x01, 0x80, 0, 0, 0, 0, 0x81, 0x80, 0, 0, 0, 0], 1002, "a new message began before the last one ended"),
        ([0x81, 0x82, 0, 0, 0, 0, 0xC3, 0x28], 1007, "a text message that is not UTF-8"),
        ([0x88, 0x81, 0, 0, 0, 0, 0x03], 1002, "a close frame of one byte"),
        ([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xED], 1002, "close code 1005 is not one a peer may send"),
        ([0x88, 0x84, 0, 0, 0, 0, 0x03, 0xE8, 0xC3, 0x28], 1007, "a close reason that is not UTF-8"),
        ([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], 1002, "a frame's 64-bit length has its top bit set"),
    ] as [([UInt8], UInt16, String)])
    func eachProtocolErrorHasItsCode(bytes: [UInt8], code: UInt16, reason: String) {
        let failure = read(bytes).failure
        #expect(failure == WebSocketReader.Failure(code: WebSocketCloseCode(rawValue: code), reason: reason))
    }

    /// Over the bound is 1009, found from the lengths before the payload has come, across fragments too.
    @Test func aMessageOverTheBoundIs1009BeforeItsBytesArrive() {
        let header = Array(Self.client(WebSocketFrame(.binary, [UInt8](repeating: 1, count: 2_000))).prefix(8))
        #expect(read(header, maximum: 1_000).failure?.code == .messageTooBig)
        let fragments = Self.client(WebSocketFrame(fin: false, .binary, [UInt8](repeating: 1, count: 600)))
            + Self.client(WebSocketFrame(.continuation, [UInt8](repeating: 1, count: 600)))
        #expect(read(fragments, maximum: 1_000).failure == WebSocketReader.Failure(code: .messageTooBig,
                                                                                   reason: "a message over 1000 bytes"))
    }

    /// UTF-8 split across fragments is whole once reassembled; a reason is cut on a character boundary.
    @Test func textSplitInsideACharacterIsValidWhole() {
        let euro = Array("€".utf8)
        let bytes = Self.client(WebSocketFrame(fin: false, .text, Array(euro[..<1])))
            + Self.client(WebSocketFrame(.continuation, Array(euro[1...])))
        #expect(read(bytes).events == [.message(.text, euro)])
        let close = WebSocketFrame.close(.goingAway, reason: String(repeating: "é", count: 100))
        #expect(close.payload.count <= 125 && UTF8Check.isValid(close.payload.dropFirst(2)))
    }

    @Test(arguments: [
        ([0xED, 0xA0, 0x80], false), ([0xC0, 0xAF], false), ([0xF4, 0x90, 0x80, 0x80], false), ([0xE0, 0x80, 0xAF], false),
        ([0xF0, 0x9F, 0x98, 0x80], true), ([0xEF, 0xBF, 0xBF], true), ([0x7F], true), ([0xE2, 0x82], false),
    ] as [([UInt8], Bool)])
    func utf8IsCheckedAsRFC3629Says(bytes: [UInt8], valid: Bool) {
        #expect(UTF8Check.isValid(bytes) == valid)
    }

    /// The check runs eight ASCII bytes at a time, then byte by byte: a bad or multi-byte sequence is judged the
    /// same wherever it falls in or after the ASCII run, and on a slice as on an array.
    @Test func utf8IsJudgedTheSameAtEveryOffset() {
        for prefix in 0...17 {
            let ascii = Array(repeating: UInt8(ascii: "a"), count: prefix)
            for (tail, valid) in [([0xF0, 0x9F, 0x98, 0x80], true), ([0xED, 0xA0, 0x80], false), ([0xC3], false),
                                  ([0x80], false), ([0xC3, 0xA9, 0x41], true)] as [([UInt8], Bool)] {
                let bytes = ascii + tail + ascii
                #expect(UTF8Check.isValid(bytes) == valid, "\(prefix) ASCII bytes, then \(tail)")
                #expect(UTF8Check.isValid(([0x20] + bytes).dropFirst()) == valid)
                // The standard library's decoder agrees: valid bytes survive decoding unchanged.
                #expect(UTF8Check.isValid(bytes) == (Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes))
            }
        }
    }

    /// Unmasking eight bytes at a time gives what the RFC's byte-by-byte XOR gives, at every length and key.
    @Test func unmaskingMatchesTheRFCsXOR() {
        let keys: [[UInt8]] = [[1, 2, 3, 4], [0xFF, 0, 0x80, 0x7F], [0x37, 0xFA, 0x21, 0x3D]]
        for key in keys {
            for length in 0...40 {
                let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
                var unmasked = payload
                WebSocketReader.unmask(&unmasked, key: key.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                #expect(unmasked == payload.enumerated().map { $0.element ^ key[$0.offset & 3] }, "\(length) bytes")
            }
        }
    }
}
