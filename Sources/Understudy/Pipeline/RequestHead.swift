import Foundation

/// What decides a request's upload rate, read from its head as it arrives, before evhttp reads the body: the
/// fault it asks for (`X-Understudy-Fault`, else `_fault` in its query) when that could set one, and its session.
/// Only these; the rest of the head is evhttp's to parse.
///
/// Every request's head is read so, on the loop, before evhttp parses it again: it is read in place, a line at a
/// time (found with `memchr`), looking only at the start of each header line, and only the values it keeps become
/// `String`s. Splitting the head into `String` lines cost a request that sent a fault header ~69k instructions,
/// and a byte-by-byte search of every head for the words that could matter ~2.6k. A fault that names neither
/// `uprate` nor `profile` (the directives that set an upload rate) is left for the pipeline: making it a `String`
/// and parsing it here too cost a request with `X-Understudy-Fault: status=503` ~2k instructions.
struct RequestHead: Equatable {
    /// The fault asked for, when its text names `uprate` or `profile`; nil for any other (which sets no rate).
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
            if let mark = target.firstIndex(of: "?"),
               let asked = QueryParameters(target[target.index(after: mark)...])["_fault"],
               RequestHead.mayAskForUploadRate(asked.utf8) {
                fault = asked
            }
        }
        while let line = lines.next(), !line.isEmpty {
            // Every name read here starts with `x` or `c`: other lines are passed over on their first byte.
            let initial = line[0] | 0x20
            guard initial == UInt8(ascii: "x") || initial == UInt8(ascii: "c"), let base = line.baseAddress,
                  let found = memchr(base, Int32(UInt8(ascii: ":")), line.count) else { continue }
            let colon = UnsafeRawPointer(found) - base
            guard let field = RequestHead.field(named: UnsafeRawBufferPointer(rebasing: line[..<colon])) else { continue }
            let bytes = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])
            if field == .fault {
                // The last fault field wins, as any other read here; one that sets no rate leaves none.
                if !RequestHead.mayAskForUploadRate(bytes) {
                    if bytes.contains(where: { !RequestHead.isSpace($0) }) { fault = nil }
                    continue
                }
            }
            let value = RequestHead.trimmed(bytes)
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
        guard let first = value.firstIndex(where: { !isSpace($0) }), let last = value.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        let text = String(decoding: value[first...last], as: UTF8.self)
        return value[first] < 0x80 && value[last] < 0x80 ? text : text.trimmingJSWhitespace()
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// Whether `text` holds `uprate` or `profile`, in any case (directive names are read so): the only directives
    /// that set an upload rate. A fault without either is not parsed here.
    private static func mayAskForUploadRate<Bytes: Collection<UInt8>>(_ text: Bytes) -> Bool {
        var index = text.startIndex
        while index != text.endIndex {
            switch text[index] | 0x20 {
            case UInt8(ascii: "u") where startsWith(text[index...], "uprate"): return true
            case UInt8(ascii: "p") where startsWith(text[index...], "profile"): return true
            default: text.formIndex(after: &index)
            }
        }
        return false
    }

    /// Whether `text` starts with the lower-case `word`, in any case.
    private static func startsWith<Bytes: Collection<UInt8>>(_ text: Bytes, _ word: StaticString) -> Bool {
        var index = text.startIndex
        for offset in 0..<word.utf8CodeUnitCount {
            guard index != text.endIndex else { return false }
            var byte = text[index]
            if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            if byte != word.utf8Start[offset] { return false }
            text.formIndex(after: &index)
        }
        return true
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

    /// ASCII case-insensitive equality of a field name with a lower-case literal (libc's `strncasecmp`, which
    /// reads no further than the literal's length: the name need not end in a NUL).
    private static func equals(_ name: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard name.count == literal.utf8CodeUnitCount, let base = name.baseAddress else { return false }
        return strncasecmp(base.assumingMemoryBound(to: CChar.self),
                           UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self), name.count) == 0
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
