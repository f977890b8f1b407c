import Foundation

/// What decides a request's upload rate, read from its head as it arrives, before evhttp reads the body: the
/// fault it asks for (`X-Understudy-Fault`, else `_fault` in its query) and its session. Only these; the rest of
/// the head is evhttp's to parse.
///
/// Every request's head is read so, on the loop, before evhttp parses it again: it is read in place, a line at a
/// time (found with `memchr`), looking only at the start of each header line, and only the values it keeps become
/// `String`s. Splitting the head into `String` lines cost a request that sent a fault header ~69k instructions,
/// and a byte-by-byte search of every head for the words that could matter ~2.6k.
struct RequestHead: Equatable {
    var fault: String?
    var session: String?
    /// `X-Understudy-Token`, which a server with an admin token needs before it honours a fault.
    var token: String?
    /// The body's `Content-Length` (0 when there is none, or it is chunked).
    var bodyBytes = 0

    /// Reads a head (request line and header lines, up to the blank line); nil when it names neither a fault
    /// nor a session, which is every request that does not ask for one (the common case).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var lines = HeadLines(start: start, end: start + bytes.count)
        guard let requestLine = lines.next() else { return nil }
        if RequestHead.mayName(RequestHead.queryWord, in: requestLine) {
            let text = String(decoding: requestLine, as: UTF8.self)
            let target = text.split(separator: " ").dropFirst().first ?? ""
            if let mark = target.firstIndex(of: "?") {
                fault = QueryParameters(target[target.index(after: mark)...])["_fault"]
            }
        }
        while let line = lines.next(), !line.isEmpty {
            // Every name read here starts with `x` or `c`: other lines are passed over on their first byte.
            let initial = line[0] | 0x20
            guard initial == UInt8(ascii: "x") || initial == UInt8(ascii: "c"),
                  let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            guard let field = RequestHead.field(named: UnsafeRawBufferPointer(rebasing: line[..<colon])) else { continue }
            let value = RequestHead.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
            switch field {
            case .fault where !value.isEmpty: fault = value
            case .session where !value.isEmpty: session = value
            case .token: token = value
            case .contentLength: bodyBytes = Int(value) ?? 0
            default: break
            }
        }
        guard fault != nil || session != nil else { return nil }
    }

    private enum Field { case fault, session, token, contentLength }

    /// The field `name` is, among those read here.
    private static func field(named name: UnsafeRawBufferPointer) -> Field? {
        switch name.first.map({ $0 | 0x20 }) {
        case UInt8(ascii: "x"):
            if equals(name, "x-understudy-fault") { return .fault }
            if equals(name, "x-understudy-session") { return .session }
            if equals(name, "x-understudy-token") { return .token }
            return nil
        case UInt8(ascii: "c"):
            return equals(name, "content-length") ? .contentLength : nil
        default:
            return nil
        }
    }

    /// `value` without JavaScript's whitespace around it. ASCII whitespace is cut from the bytes; only a value
    /// that then starts or ends outside ASCII needs the Unicode rules (`trimmingJSWhitespace`).
    private static func trimmed(_ value: UnsafeRawBufferPointer) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = value.firstIndex(where: { !isSpace($0) }), let last = value.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        let text = String(decoding: value[first...last], as: UTF8.self)
        return value[first] < 0x80 && value[last] < 0x80 ? text : text.trimmingJSWhitespace()
    }

    /// What a query parameter naming a fault holds: `_fault`, or its underscore percent-encoded.
    private static let queryWord: StaticString = "_fault"

    /// Whether `line` holds `_fault`, or `%5F` (either case): the request line of nearly every request holds
    /// neither, which two `memchr` calls tell.
    private static func mayName(_ word: StaticString, in line: UnsafeRawBufferPointer) -> Bool {
        guard let start = line.baseAddress else { return false }
        let end = start + line.count
        let literal = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var cursor = start
        while let found = memchr(cursor, Int32(word.utf8Start.pointee), end - cursor).map(UnsafeRawPointer.init) {
            if end - found >= literal.count, memcmp(found, literal.baseAddress!, literal.count) == 0 { return true }
            cursor = found + 1
        }
        cursor = start
        while let found = memchr(cursor, Int32(UInt8(ascii: "%")), end - cursor).map(UnsafeRawPointer.init) {
            if end - found >= 3, found.load(fromByteOffset: 1, as: UInt8.self) == UInt8(ascii: "5"),
               found.load(fromByteOffset: 2, as: UInt8.self) | 0x20 == UInt8(ascii: "f") {
                return true
            }
            cursor = found + 1
        }
        return false
    }

    /// ASCII case-insensitive equality of a field name with a lower-case literal.
    private static func equals(_ name: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard name.count == literal.utf8CodeUnitCount, name.first.map({ $0 | 0x20 }) == literal.utf8Start.pointee else {
            return false
        }
        let letters = literal.utf8Start
        for index in 0..<name.count {
            var byte = name[index]
            if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            if byte != letters[index] { return false }
        }
        return true
    }
}

/// The lines of a request head, each without its CRLF, read in place: a line ends at CRLF only, as the head was
/// always read (a lone LF stays inside its line).
private struct HeadLines {
    private var cursor: UnsafeRawPointer
    private let end: UnsafeRawPointer

    init(start: UnsafeRawPointer, end: UnsafeRawPointer) {
        cursor = start
        self.end = end
    }

    mutating func next() -> UnsafeRawBufferPointer? {
        guard cursor < end else { return nil }
        let start = cursor
        var search = cursor
        while search < end, let newline = memchr(search, Int32(UInt8(ascii: "\n")), end - search).map(UnsafeRawPointer.init) {
            if newline > start, newline.load(fromByteOffset: -1, as: UInt8.self) == UInt8(ascii: "\r") {
                cursor = newline + 1
                return UnsafeRawBufferPointer(start: start, count: newline - 1 - start)
            }
            search = newline + 1
        }
        cursor = end
        return UnsafeRawBufferPointer(start: start, count: end - start)
    }
}
