/// Parses fault specs: `;`-separated directives, each `name` or `name=value`.
public enum FaultSpecParser {
    /// The longest spec accepted, so a header cannot make the server do unbounded work.
    public static let maximumLength = 1_024

    /// Parses `text`.
    ///
    /// A directive that could never change anything is refused as well as a malformed one: one given twice, one
    /// that clashes with an earlier directive (`status=503; empty`), and `message` or `retry-after` with no status
    /// to go with.
    /// - Throws: `FaultSpecError` naming the directive, its position and the problem; nothing is half-applied.
    public static func parse(_ text: String) throws(FaultSpecError) -> FaultSpec {
        guard text.utf8.count <= maximumLength else {
            throw FaultSpecError(directive: String(text.prefix(32)) + "…", position: 1,
                                 reason: "the spec is longer than \(maximumLength) bytes")
        }
        var spec = FaultSpec()
        var seen: [Written] = []
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
            let written = Written(name: name, directive: directive, position: offset)
            do throws(Problem) {
                try apply(name: name, value: value, to: &spec)
                if let earlier = seen.first(where: { $0.name == name }) {
                    throw Problem("'\(name)' is already given at position \(earlier.position); give each directive once")
                }
                if let earlier = seen.first(where: { clash(name, $0.name) != nil }) {
                    throw Problem("cannot be combined with '\(earlier.directive)' at position \(earlier.position): "
                                  + (clash(name, earlier.name) ?? ""))
                }
            } catch {
                throw written.error(error.reason)
            }
            seen.append(written)
            spec.directives.append(FaultSpec.Directive(name: name, text: value.map { "\(name)=\($0)" } ?? name))
        }
        try checkCompanions(spec, seen)
        spec.text = spec.directives.map(\.text).joined(separator: "; ")
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

    /// A directive as written, and where.
    private struct Written {
        let name: String
        let directive: String
        let position: Int

        func error(_ reason: String) -> FaultSpecError {
            FaultSpecError(directive: directive, position: position, reason: reason)
        }
    }

    private static func apply(name: String, value: String?, to spec: inout FaultSpec) throws(Problem) {
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
            if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                // The 429's reset header adds the seconds to the clock, so they are bounded.
                guard (Int(text) ?? .max) <= maximumRetryAfterSeconds else {
                    throw Problem("retry-after must be at most \(maximumRetryAfterSeconds) seconds (a year)")
                }
            } else if Timestamp.secondsSince1970(httpDate: text) == nil {
                throw Problem("retry-after must be whole seconds or an HTTP-date like 'Wed, 21 Oct 2026 07:28:00 GMT'"
                              + " (IMF-fixdate: the right weekday, two-digit day, English month, GMT)")
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
            // Going offline is a server-wide state, not something one request can ask for.
            throw Problem("offline is not a per-request directive; take the server offline with "
                          + "POST /__understudy/offline {\"seconds\": 5} or, from Swift, server.goOffline(for:)")
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

    /// What each directive does to the reply, for telling which pairs cannot both take effect.
    private enum Role: Equatable {
        case connection, status, truncation, pacing, malformed, expireToken, stream, other

        init(_ name: String) {
            switch name {
            case "empty", "reset", "hang", "garbage": self = .connection
            case "status": self = .status
            case "truncate", "truncate-chunked": self = .truncation
            case "rate", "chunks": self = .pacing
            case "malformed": self = .malformed
            case "expire-token": self = .expireToken
            case _ where FaultSpec.streamDirectives.contains(name): self = .stream
            default: self = .other
            }
        }
    }

    /// Why directives `name` and `other` cannot both be in one spec, or nil when they can.
    private static func clash(_ name: String, _ other: String) -> String? {
        let pair = [Role(name), Role(other)]
        if pair.contains(.connection), !pair.contains(.other) {
            return "each decides the whole reply"
        }
        if pair.contains(.status), [.truncation, .malformed, .expireToken, .stream].contains(where: pair.contains) {
            return "status replaces the reply, so the other would change nothing"
        }
        if pair.contains(.stream), [.truncation, .pacing, .malformed].contains(where: pair.contains) {
            return "one applies only to /products/stream, the other only to a body sent whole"
        }
        if pair == [.truncation, .pacing] || pair == [.pacing, .truncation] || pair == [.truncation, .truncation]
            || pair == [.pacing, .pacing] {
            return "only one of them can decide how the body is sent"
        }
        return nil
    }

    /// `message` and `retry-after` only shape a status reply: alone they would change nothing.
    private static func checkCompanions(_ spec: FaultSpec, _ seen: [Written]) throws(FaultSpecError) {
        if let message = seen.first(where: { $0.name == "message" }) {
            if spec.status == nil, spec.rateLimit == nil {
                throw message.error("'message' needs status=CODE (or rate-limit=…) to go with: on its own it changes nothing")
            }
            if spec.status == 204 { throw message.error("a 204 has no body, so 'message' would change nothing") }
        }
        if let retryAfter = seen.first(where: { $0.name == "retry-after" }) {
            if spec.status == nil {
                throw retryAfter.error("'retry-after' needs status=CODE to go with: on its own it changes nothing"
                                       + " (a rate-limit sets its own Retry-After)")
            }
            if spec.status == 204 { throw retryAfter.error("a 204 carries no Retry-After, so 'retry-after' would change nothing") }
        }
    }

    static let maximumRetryAfterSeconds = 31_536_000

    static let known = ["delay", "rate", "chunks", "status", "message", "retry-after", "rate-limit", "expire-token",
                        "malformed", "truncate", "truncate-chunked", "empty", "reset", "hang", "garbage",
                        "drop-after", "cut-mid-event", "reset-after", "stall-after", "malformed-event", "newline", "chunk"]

    private static func example(_ name: String) -> String {
        switch name {
        case "delay": "delay=300ms or delay=100ms..500ms"
        case "rate": "rate=2kB/s"
        case "chunks": "chunks=10/2s"
        case "rate-limit": "rate-limit=5/10s"
        case "truncate": "truncate=512 or truncate=50%"
        default: "\(name)=3"
        }
    }
}
