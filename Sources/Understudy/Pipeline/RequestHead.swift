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
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard RequestHead.mentionsUnderstudy(bytes) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).makeIterator()
        let target = lines.next()?.split(separator: " ").dropFirst().first ?? ""
        if let mark = target.firstIndex(of: "?") {
            fault = QueryParameters(target[target.index(after: mark)...])["_fault"]
        }
        while let line = lines.next(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingJSWhitespace()
            if name == "x-understudy-fault", !value.isEmpty {
                fault = value
            } else if name == "x-understudy-session", !value.isEmpty {
                session = value
            } else if name == "x-understudy-token" {
                token = value
            } else if name == "content-length" {
                bodyBytes = Int(value) ?? 0
            }
        }
        guard fault != nil || session != nil else { return nil }
    }

    /// Whether the head holds `understudy` (any case) or `_fault`: the words every header and query that could
    /// set a rate contain.
    private static func mentionsUnderstudy(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let words: [[UInt8]] = [Array("understudy".utf8), Array("_fault".utf8)]
        guard bytes.count >= 6 else { return false }
        for start in 0..<bytes.count {
            for word in words where start + word.count <= bytes.count {
                var index = 0
                while index < word.count, lowercased(bytes[start + index]) == word[index] { index += 1 }
                if index == word.count { return true }
            }
        }
        return false
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
