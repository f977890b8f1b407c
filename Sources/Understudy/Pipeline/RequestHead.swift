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
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard RequestHead.mayAskForFaultOrSession(bytes) else { return nil }
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

    /// Whether the head could name a fault or a session: `_fault` in its request line, or a header line whose name
    /// starts with `X-Understudy-` (any case). Every head is asked this as it arrives, so it looks only at the first
    /// byte of each line (found with `memchr`) and at the underscores of the request line: a byte-by-byte search
    /// of the whole head for two words cost every request ~2.6k instructions.
    static func mayAskForFaultOrSession(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
        let end = start + bytes.count
        let newline = Int32(UInt8(ascii: "\n"))
        var lineEnd = memchr(start, newline, bytes.count).map { UnsafeRawPointer($0) } ?? end
        var cursor = start
        while let underscore = memchr(cursor, Int32(UInt8(ascii: "_")), lineEnd - cursor).map(UnsafeRawPointer.init) {
            if starts(underscore, end, with: queryWord, caseInsensitive: false) { return true }
            cursor = underscore + 1
        }
        while lineEnd < end {
            let line = lineEnd + 1
            if starts(line, end, with: headerPrefix, caseInsensitive: true) { return true }
            lineEnd = memchr(line, newline, end - line).map { UnsafeRawPointer($0) } ?? end
        }
        return false
    }

    private static let queryWord: StaticString = "_fault"
    /// Lower case: a name is compared after lowering its ASCII letters.
    private static let headerPrefix: StaticString = "x-understudy-"

    private static func starts(_ position: UnsafeRawPointer, _ end: UnsafeRawPointer, with word: StaticString,
                               caseInsensitive: Bool) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - position >= count else { return false }
        let letters = word.utf8Start
        for index in 0..<count {
            var byte = position.load(fromByteOffset: index, as: UInt8.self)
            if caseInsensitive, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            if byte != letters[index] { return false }
        }
        return true
    }
}
