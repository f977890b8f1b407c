extension Fault {
    /// Reads a spec in the header grammar, e.g. `status=503; retry-after=1` or a rule's `fault` from the admin API.
    ///
    /// Reads what the server's parser reads (names in any case, `2kB/s`, `1.5s`, `malformed=json`,
    /// `reset=before-headers`) and positions errors the same way. It checks each directive's form, not how
    /// directives combine: the server refuses clashes such as `status=503; empty`.
    ///
    /// - Parameter text: The spec; an empty one is ``none``.
    /// - Throws: ``FaultSpecError`` naming the directive, its 1-based byte position and the problem.
    public init(parsing text: String) throws(FaultSpecError) {
        var directives: [Directive] = []
        var position = 1
        for raw in text.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            defer { position += raw.count + 1 }
            let written = Fault.trimmed(String(Substring(raw)))
            guard !written.isEmpty else { continue }
            let offset = position + raw.prefix(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }).count
            let name: String
            let value: String?
            if let equals = written.utf8.firstIndex(of: UInt8(ascii: "=")) {
                name = Fault.trimmed(String(Substring(written.utf8[..<equals]))).lowercased()
                value = Fault.trimmed(String(Substring(written.utf8[written.utf8.index(after: equals)...])))
            } else {
                name = written.lowercased()
                value = nil
            }
            do throws(Problem) {
                directives.append(try Fault.directive(name: name, value: value))
            } catch {
                throw FaultSpecError(directive: written, position: offset, reason: error.reason)
            }
        }
        self.init(directives: directives)
    }

    struct Problem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func directive(name: String, value: String?) throws(Problem) -> Directive {
        func required() throws(Problem) -> String {
            guard let value, !value.isEmpty else { throw Problem("'\(name)' needs a value") }
            return value
        }
        func flag(_ directive: Directive) throws(Problem) -> Directive {
            guard value == nil else { throw Problem("'\(name)' takes no value") }
            return directive
        }
        func count(minimum: Int = 1) throws(Problem) -> Int {
            let text = try required()
            guard let number = Int(text), number >= minimum else {
                throw Problem("\(name) needs a whole number from \(minimum), not '\(text)'")
            }
            return number
        }
        switch name {
        case "delay":
            let parts = rangeParts(try required())
            guard parts.count <= 2 else { throw Problem("a range is written low..high, e.g. 100ms..500ms") }
            let low = try milliseconds(parts[0])
            let high = parts.count == 2 ? try milliseconds(parts[1]) : low
            guard low <= high else { throw Problem("the range's low end is above its high end") }
            return .delay(low...high)
        case "rate":
            return .rate(bytesPerSecond: try byteRate(try required()))
        case "chunks":
            let (count, window) = try perWindow(try required(), "chunks is written COUNT/DURATION, e.g. 10/2s")
            return .chunks(count: count, overMilliseconds: window)
        case "status":
            let text = try required()
            guard let code = Int(text) else { throw Problem("status must be a number, not '\(text)'") }
            return .status(code)
        case "message":
            return .message(try required())
        case "retry-after":
            return .retryAfter(.parse(try required()))
        case "rate-limit":
            let (requests, window) = try perWindow(try required(), "rate-limit is written REQUESTS/WINDOW, e.g. 5/10s")
            return .rateLimit(requests: requests, windowMilliseconds: window)
        case "expire-token": return try flag(.expireToken)
        case "malformed":
            switch value?.lowercased() {
            case nil, "syntax", "json": return .malformed(shape: false)
            case "shape": return .malformed(shape: true)
            default: throw Problem("malformed takes no value, 'syntax' or 'shape'")
            }
        case "truncate":
            let text = try required()
            if text.hasSuffix("%") {
                guard let percent = Int(text.dropLast()) else { throw Problem("truncate=N% needs a whole N") }
                return .truncatePercent(percent)
            }
            guard let bytes = Int(text) else { throw Problem("truncate needs a byte count or a percentage") }
            return .truncateBytes(bytes)
        case "truncate-chunked": return try flag(.truncateChunked)
        case "empty": return try flag(.empty)
        case "reset":
            switch value?.lowercased() {
            case nil, "before-headers": return .reset(afterHeaders: false)
            case "after-headers": return .reset(afterHeaders: true)
            default: throw Problem("reset takes no value or 'after-headers'")
            }
        case "hang": return try flag(.hang)
        case "garbage": return try flag(.garbage)
        case "drop-after": return .dropAfter(try count())
        case "cut-mid-event": return .cutMidEvent(try count())
        case "reset-after": return .resetAfter(try count())
        case "stall-after": return .stallAfter(try count(minimum: 0))
        case "malformed-event": return .malformedEvent(try count())
        case "chunk": return .chunk(try count())
        case "newline":
            guard let newline = Newline.named(try required()) else { throw Problem("newline must be crlf, cr or lf") }
            return .newline(newline)
        case "offline":
            throw Problem("offline is not a per-request directive; take the server offline with POST /__understudy/offline")
        default:
            throw Problem("unknown directive '\(name)'")
        }
    }

    /// Milliseconds from `300ms`, `2s`, `1.5s`, `1m` or a bare number of milliseconds, rounded as the server does.
    private static func milliseconds(_ text: String) throws(Problem) -> Int {
        let lower = text.lowercased()
        let (number, scale): (Substring, Double) =
            lower.hasSuffix("ms") ? (lower.dropLast(2), 1)
            : lower.hasSuffix("s") ? (lower.dropLast(1), 1_000)
            : lower.hasSuffix("m") ? (lower.dropLast(1), 60_000)
            : (lower[...], 1)
        guard let value = decimal(number) else { throw Problem("'\(text)' is not a duration like 300ms or 2s") }
        return Int(min(value * scale, 1e15).rounded())
    }

    /// `2kB/s`, `512B/s`, `1MB/s`, `1KiB/s` in bytes per second.
    private static func byteRate(_ text: String) throws(Problem) -> Int {
        let lower = text.lowercased()
        guard lower.hasSuffix("/s") else { throw Problem("a rate is written like 2kB/s") }
        let amount = lower.dropLast(2)
        let units: [(String, Double)] = [("kib", 1_024), ("mib", 1_048_576), ("kb", 1_000), ("mb", 1_000_000), ("b", 1)]
        guard let (suffix, scale) = units.first(where: { amount.hasSuffix($0.0) }),
              let value = decimal(amount.dropLast(suffix.count)) else {
            throw Problem("'\(text)' is not a rate like 2kB/s or 512B/s")
        }
        return Int(min(value * scale, 1e15).rounded())
    }

    /// `COUNT/DURATION`, as `chunks` and `rate-limit` write it.
    private static func perWindow(_ text: String, _ form: String) throws(Problem) -> (Int, Int) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let count = Int(parts[0]) else { throw Problem(form) }
        return (count, try milliseconds(String(parts[1])))
    }

    /// `low..high` split at each `..` (Foundation's `components(separatedBy:)` without Foundation).
    private static func rangeParts(_ text: String) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var bytes = text.utf8[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "."), bytes.first == UInt8(ascii: ".") {
                bytes.removeFirst()
                parts.append(String(decoding: current, as: UTF8.self))
                current = []
            } else {
                current.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// Digits with at most one `.`, and nothing else.
    private static func decimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
              text.utf8.filter({ $0 == 0x2E }).count <= 1, text.utf8.contains(where: { $0 != 0x2E }) else { return nil }
        return Double(text)
    }
}
