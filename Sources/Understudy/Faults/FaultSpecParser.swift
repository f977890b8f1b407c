/// Parses fault specs: `;`-separated directives, each `name` or `name=value`.
public enum FaultSpecParser {
    /// The longest spec accepted, so a header cannot make the server do unbounded work.
    public static let maximumLength = 1_024

    /// Parses `text`. `allowOffline` admits `offline=…`, which only the admin API and Swift may use.
    /// - Throws: `FaultSpecError` naming the directive, its position and the problem; nothing is half-applied.
    public static func parse(_ text: String, allowOffline: Bool = false) throws(FaultSpecError) -> FaultSpec {
        guard text.utf8.count <= maximumLength else {
            throw FaultSpecError(directive: String(text.prefix(32)) + "…", position: 1,
                                 reason: "the spec is longer than \(maximumLength) bytes")
        }
        var spec = FaultSpec()
        var normalised: [String] = []
        var position = 1
        // Split on bytes, not Characters: a combining mark after `;` or `=` would join it into one grapheme and
        // hide the separator, so a value starting with one would not survive its own normalised text.
        for rawDirective in text.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            defer { position += rawDirective.count + 1 }
            let directive = String(Substring(rawDirective)).trimmingJSWhitespace()
            guard !directive.isEmpty else { continue }
            let offset = position + (rawDirective.prefix(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }).count)
            let name: String
            let value: String?
            if let equals = directive.utf8.firstIndex(of: UInt8(ascii: "=")) {
                name = String(Substring(directive.utf8[..<equals])).trimmingJSWhitespace().lowercased()
                value = String(Substring(directive.utf8[directive.utf8.index(after: equals)...])).trimmingJSWhitespace()
            } else {
                name = directive.lowercased()
                value = nil
            }
            do {
                try apply(name: name, value: value, to: &spec, allowOffline: allowOffline)
            } catch {
                throw FaultSpecError(directive: directive, position: offset, reason: error.reason)
            }
            normalised.append(value.map { "\(name)=\($0)" } ?? name)
        }
        try checkConflicts(spec, normalised: normalised)
        spec.text = normalised.joined(separator: "; ")
        // The normalised text is what X-Understudy-Fault-Applied reports; it must itself be a valid spec.
        guard spec.text.utf8.count <= maximumLength else {
            throw FaultSpecError(directive: String(text.prefix(32)) + "…", position: 1,
                                 reason: "the spec is longer than \(maximumLength) bytes")
        }
        return spec
    }

    struct Problem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func apply(name: String, value: String?, to spec: inout FaultSpec, allowOffline: Bool) throws(Problem) {
        func required() throws(Problem) -> String {
            guard let value, !value.isEmpty else { throw Problem("'\(name)' needs a value, e.g. \(example(name))") }
            return value
        }
        func flag() throws(Problem) {
            guard value == nil else { throw Problem("'\(name)' takes no value") }
        }
        switch name {
        case "delay":
            spec.delay = try Durations.range(try required(), maximumMilliseconds: 60_000)
        case "rate":
            spec.pacing = .bytesPerSecond(try Durations.byteRate(try required()))
        case "chunks":
            spec.pacing = try Durations.chunks(try required())
        case "status":
            let text = try required()
            guard let code = Int(text), code == 204 || (400...599).contains(code) else {
                throw Problem("status must be 204 or a code from 400 to 599, not '\(text)'")
            }
            spec.status = code
        case "message":
            spec.message = try required()
        case "retry-after":
            let text = try required()
            let isSeconds = text.allSatisfy(\.isNumber)
            guard text.allSatisfy(\.isASCII), isSeconds || text.contains(" GMT") else {
                throw Problem("retry-after must be whole seconds or an HTTP-date like 'Wed, 21 Oct 2026 07:28:00 GMT'")
            }
            // The 429's reset header adds the seconds to the clock, so they are bounded.
            if isSeconds, (Int(text) ?? .max) > maximumRetryAfterSeconds {
                throw Problem("retry-after must be at most \(maximumRetryAfterSeconds) seconds (a year)")
            }
            spec.retryAfter = text
        case "rate-limit":
            spec.rateLimit = try Durations.rateLimit(try required())
        case "expire-token":
            try flag()
            spec.expireToken = true
        case "malformed":
            switch value?.lowercased() {
            case nil, "syntax", "json": spec.malformed = .syntax
            case "shape": spec.malformed = .shape
            default: throw Problem("malformed takes no value, 'syntax' or 'shape'")
            }
        case "truncate":
            let text = try required()
            if text.hasSuffix("%") {
                guard let percent = Int(text.dropLast()), (0...99).contains(percent) else {
                    throw Problem("truncate=N% needs N from 0 to 99")
                }
                spec.truncation = .percent(percent)
            } else {
                guard let bytes = Int(text), bytes >= 0 else { throw Problem("truncate needs a byte count or a percentage") }
                spec.truncation = .bytes(bytes)
            }
        case "truncate-chunked":
            try flag()
            spec.truncation = .chunked
        case "empty":
            try flag()
            spec.connection = .empty
        case "reset":
            switch value?.lowercased() {
            case nil, "before-headers": spec.connection = .reset(afterHeaders: false)
            case "after-headers": spec.connection = .reset(afterHeaders: true)
            default: throw Problem("reset takes no value or 'after-headers'")
            }
        case "hang":
            try flag()
            spec.connection = .hang
        case "garbage":
            try flag()
            spec.connection = .garbage
        case "offline":
            guard allowOffline else {
                throw Problem("offline can only be set through the admin API or from Swift, not per request")
            }
            spec.offlineMilliseconds = try Durations.milliseconds(try required(), maximum: 600_000)
        case "drop-after": spec.stream.dropAfter = try count(name, try required())
        case "cut-mid-event": spec.stream.cutMidEvent = try count(name, try required())
        case "reset-after": spec.stream.resetAfter = try count(name, try required())
        case "stall-after": spec.stream.stallAfter = try count(name, try required(), allowZero: true)
        case "malformed-event": spec.stream.malformedEvent = try count(name, try required())
        case "newline":
            let text = try required().lowercased()
            guard ["crlf", "cr", "lf"].contains(text) else { throw Problem("newline must be crlf, cr or lf") }
            spec.stream.newline = text
        case "chunk":
            spec.stream.chunkSize = try count(name, try required())
        default:
            throw Problem("unknown directive '\(name)'; known: \(known.joined(separator: ", "))")
        }
    }

    private static func count(_ name: String, _ text: String, allowZero: Bool = false) throws(Problem) -> Int {
        guard let value = Int(text), value >= (allowZero ? 0 : 1), value <= 1_000_000 else {
            throw Problem("\(name) needs a whole number from \(allowZero ? 0 : 1), not '\(text)'")
        }
        return value
    }

    private static func checkConflicts(_ spec: FaultSpec, normalised: [String]) throws(FaultSpecError) {
        let connectionDirectives = ["empty", "reset", "hang", "garbage"]
        let used = normalised.map { $0.split(separator: "=").first.map(String.init) ?? $0 }
        let connections = used.filter { connectionDirectives.contains($0) }
        if connections.count > 1 || (spec.connection != nil && (spec.status != nil || spec.truncation != nil)) {
            let clash = used.filter { connectionDirectives.contains($0) || ["status", "truncate", "truncate-chunked"].contains($0) }
            throw FaultSpecError(directive: clash.joined(separator: "; "), position: 1,
                                 reason: "these directives cannot be combined: each decides the whole reply")
        }
    }

    static let maximumRetryAfterSeconds = 31_536_000

    static let known = ["delay", "rate", "chunks", "status", "message", "retry-after", "rate-limit", "expire-token",
                        "malformed", "truncate", "truncate-chunked", "empty", "reset", "hang", "garbage", "offline",
                        "drop-after", "cut-mid-event", "reset-after", "stall-after", "malformed-event", "newline", "chunk"]

    private static func example(_ name: String) -> String {
        switch name {
        case "delay": "delay=300ms or delay=100ms..500ms"
        case "rate": "rate=2kB/s"
        case "chunks": "chunks=10/2s"
        case "rate-limit": "rate-limit=5/10s"
        case "offline": "offline=2s"
        case "truncate": "truncate=512 or truncate=50%"
        default: "\(name)=3"
        }
    }
}
