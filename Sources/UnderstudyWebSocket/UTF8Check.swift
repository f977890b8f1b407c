/// Whether bytes are well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF. A text
/// message must be (RFC 6455 §8.1), and so must a close frame's reason.
package enum UTF8Check {
    package static func isValid<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        // Most text is ASCII: eight bytes at a time while it is, then the full check from the first byte that is
        // not (every byte before it ended a character).
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer -> Bool in
            let raw = UnsafeRawBufferPointer(buffer)
            var index = 0
            while index + 8 <= raw.count,
                  raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            while index < raw.count, raw[index] < 0x80 { index += 1 }
            return index == raw.count || isValidByteByByte(buffer[index...])
        }
        return contiguous ?? isValidByteByByte(bytes)
    }

    private static func isValidByteByByte<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var iterator = bytes.makeIterator()
        while let lead = iterator.next() {
            let count: Int
            var range: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; range = 0xA0...0xBF
            case 0xED: count = 2; range = 0x80...0x9F
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xF0: count = 3; range = 0x90...0xBF
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; range = 0x80...0x8F
            default: return false
            }
            // The first continuation byte is the one whose range a lead narrows; the rest are 80-BF.
            for index in 0..<count {
                guard let next = iterator.next(), (index == 0 ? range : 0x80...0xBF).contains(next) else { return false }
            }
        }
        return true
    }
}
