import Foundation

/// What decides a request's upload rate, read from its head as it arrives, before evhttp reads the body: the
/// fault it asks for (`X-Understudy-Fault`, else `_fault` in its query) and its session. Only these; the rest of
/// the head is evhttp's to parse.
struct RequestHead: Equatable {
    var fault: String?
    var session: String?
    /// `X-Understudy-Token`, which a server with an admin token needs before it honours a fault.
    var token: String?
    /// The body's `Content-Length` (0 when there is none, or it is chunked).
    var bodyBytes = 0

    /// Reads a head (request line and header lines, up to the blank line); nil when it names neither a fault
    /// nor a session, which is every request that does not ask for one (the common case, decided in one scan).
    ///
    /// Read as bytes: every request's head passes here, and splitting it as a `String` went Character by Character
    /// (grapheme breaking), tens of thousands of instructions for a head that asked for a fault.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard RequestHead.mentionsUnderstudy(bytes) else { return nil }
        var lines = HeadLines(bytes)
        if let requestLine = lines.next(), let target = RequestHead.target(of: requestLine, in: bytes),
           let mark = target.first(where: { bytes[$0] == UInt8(ascii: "?") }) {
            let query = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[mark + 1..<target.upperBound]), as: UTF8.self)
            fault = QueryParameters(Substring(query))["_fault"]
        }
        while let line = lines.next(), !line.isEmpty {
            guard let colon = line.first(where: { bytes[$0] == UInt8(ascii: ":") }) else { continue }
            let name = line.lowerBound..<colon
            func value() -> String {
                // Spaces and tabs around a value are dropped as bytes first, so the trim below has nothing to do.
                var start = colon + 1
                var end = line.upperBound
                while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
                while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    .trimmingJSWhitespace()
            }
            if RequestHead.name(name, in: bytes, is: "x-understudy-fault") {
                let text = value()
                if !text.isEmpty { fault = text }
            } else if RequestHead.name(name, in: bytes, is: "x-understudy-session") {
                let text = value()
                if !text.isEmpty { session = text }
            } else if RequestHead.name(name, in: bytes, is: "x-understudy-token") {
                token = value()
            } else if RequestHead.name(name, in: bytes, is: "content-length") {
                bodyBytes = Int(value()) ?? 0
            }
        }
        guard fault != nil || session != nil else { return nil }
    }

    /// The request line's second word, split at spaces as `split(separator: " ")` splits.
    private static func target(of line: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        let space = UInt8(ascii: " ")
        var index = line.lowerBound
        while index < line.upperBound, bytes[index] == space { index += 1 }
        while index < line.upperBound, bytes[index] != space { index += 1 }
        while index < line.upperBound, bytes[index] == space { index += 1 }
        let start = index
        while index < line.upperBound, bytes[index] != space { index += 1 }
        return start < index ? start..<index : nil
    }

    /// Whether the header name at `range` is `lowercased`, ignoring ASCII case.
    private static func name(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer, is lowercased: StaticString) -> Bool {
        guard range.count == lowercased.utf8CodeUnitCount else { return false }
        let expected = lowercased.utf8Start
        for offset in 0..<range.count where self.lowercased(bytes[range.lowerBound + offset]) != expected[offset] {
            return false
        }
        return true
    }

    /// Whether the head holds `understudy` (any case) or `_fault`: the words every header and query that could
    /// set a rate contain. `memchr` finds where each could start (a `u`, a `U`, a `_`), so a head that names
    /// neither costs three vectorised scans and no allocation.
    private static func mentionsUnderstudy(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 6 else { return false }
        return holds(bytes, from: UInt8(ascii: "u"), "understudy") || holds(bytes, from: UInt8(ascii: "U"), "understudy")
            || holds(bytes, from: UInt8(ascii: "_"), "_fault")
    }

    /// Whether `word` (lower-case) starts, ignoring ASCII case, at one of the places where `first` is.
    private static func holds(_ bytes: UnsafeRawBufferPointer, from first: UInt8, _ word: StaticString) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var from = 0
        while from < bytes.count, let found = memchr(base + from, Int32(first), bytes.count - from) {
            let start = base.distance(to: UnsafeRawPointer(found))
            if start + word.utf8CodeUnitCount <= bytes.count,
               name(start..<start + word.utf8CodeUnitCount, in: bytes, is: word) { return true }
            from = start + 1
        }
        return false
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}

/// The lines of a head, split at CRLF as the `String` split did, as ranges of its bytes.
private struct HeadLines: IteratorProtocol {
    let bytes: UnsafeRawBufferPointer
    var start = 0
    var done = false

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func next() -> Range<Int>? {
        guard !done else { return nil }
        if let base = bytes.baseAddress {
            var from = start
            while from < bytes.count, let found = memchr(base + from, 0x0D, bytes.count - from) {
                let index = base.distance(to: UnsafeRawPointer(found))
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    defer { start = index + 2 }
                    return start..<index
                }
                from = index + 1
            }
        }
        done = true
        return start..<bytes.count
    }
}
