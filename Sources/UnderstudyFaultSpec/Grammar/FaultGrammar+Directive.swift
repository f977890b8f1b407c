extension FaultGrammar {
    /// Reads one directive from its lower-cased name and its trimmed value (nil when there is no `=`), with the
    /// server's bounds: a directive the server would refuse on its own is refused here, in the server's words.
    static func directive(name written: String, value: String?) throws(Problem) -> Fault.Directive {
        guard let name = Fault.Directive.Name(rawValue: written) else {
            if written == "offline" {
                // Going offline is a server-wide state, not something one request can ask for.
                throw Problem("offline is not a per-request directive; take the server offline with "
                              + "POST /__understudy/offline {\"seconds\": 5} or, from Swift, server.goOffline(for:)")
            }
            let known = Fault.Directive.Name.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem("unknown directive '\(written)'; known: \(known)")
        }
        func required() throws(Problem) -> String {
            guard let value, !value.isEmpty else { throw Problem("'\(written)' needs a value, e.g. \(name.example)") }
            return value
        }
        func flag(_ directive: Fault.Directive) throws(Problem) -> Fault.Directive {
            guard value == nil else { throw Problem("'\(written)' takes no value") }
            return directive
        }
        func count(allowZero: Bool = false) throws(Problem) -> Int {
            let text = try required()
            guard let number = Int(text), number >= (allowZero ? 0 : 1), number <= 1_000_000 else {
                throw Problem("\(written) needs a whole number from \(allowZero ? 0 : 1), not '\(text)'")
            }
            return number
        }
        switch name {
        case .delay:
            return .delay(try range(try required(), maximumMilliseconds: 60_000))
        case .jitter:
            return .jitter(try milliseconds(try required(), maximum: 60_000))
        case .rate:
            return .rate(bytesPerSecond: try byteRate(try required()))
        case .uprate:
            return .uprate(bytesPerSecond: try byteRate(try required()))
        case .stall:
            return .stall(try range(try required(), maximumMilliseconds: 60_000))
        case .profile:
            let text = try required()
            guard let profile = Fault.NetworkProfile.named(text) else {
                let known = Fault.NetworkProfile.all.map(\.name).joined(separator: ", ")
                throw Problem("unknown profile '\(text)'; known: \(known)")
            }
            return .profile(profile)
        case .chunks:
            let (count, window) = try chunks(try required())
            return .chunks(count: count, overMilliseconds: window)
        case .status:
            let text = try required()
            guard let code = Int(text), code == 204 || (400...599).contains(code) else {
                throw Problem("status must be 204 or a code from 400 to 599, not '\(text)'")
            }
            return .status(code)
        case .message:
            return .message(try required())
        case .retryAfter:
            return .retryAfter(try retryAfter(try required()))
        case .rateLimit:
            let (requests, window) = try rateLimit(try required())
            return .rateLimit(requests: requests, windowMilliseconds: window)
        case .expireToken:
            return try flag(.expireToken)
        case .malformed:
            switch value?.lowercased() {
            case nil, "syntax", "json": return .malformed(shape: false)
            case "shape": return .malformed(shape: true)
            default: throw Problem("malformed takes no value, 'syntax' or 'shape'")
            }
        case .truncate:
            let text = try required()
            if text.hasSuffix("%") {
                guard let percent = Int(text.dropLast()), (0...99).contains(percent) else {
                    throw Problem("truncate=N% needs N from 0 to 99")
                }
                return .truncatePercent(percent)
            }
            guard let bytes = Int(text), bytes >= 0 else { throw Problem("truncate needs a byte count or a percentage") }
            return .truncateBytes(bytes)
        case .truncateChunked: return try flag(.truncateChunked)
        case .empty: return try flag(.empty)
        case .reset:
            switch value?.lowercased() {
            case nil, "before-headers": return .reset(afterHeaders: false)
            case "after-headers": return .reset(afterHeaders: true)
            default: throw Problem("reset takes no value or 'after-headers'")
            }
        case .hang: return try flag(.hang)
        case .garbage: return try flag(.garbage)
        case .dropAfter: return .dropAfter(try count())
        case .cutMidEvent: return .cutMidEvent(try count())
        case .resetAfter: return .resetAfter(try count())
        case .stallAfter: return .stallAfter(try count(allowZero: true))
        case .malformedEvent: return .malformedEvent(try count())
        case .newline:
            guard let newline = Fault.Newline.named(try required().lowercased()) else {
                throw Problem("newline must be crlf, cr or lf")
            }
            return .newline(newline)
        case .chunk: return .chunk(try count())
        case .close:
            let text = try required()
            guard let code = Int(text), Fault.sendableCloseCodes.contains(where: { $0.contains(code) }) else {
                throw Problem("close must be a close code a server may send (1000, 1001, 1002, 1003, 1007, 1008, 1009, "
                              + "1011, 1012, 1013, 1014, or 3000 to 4999), not '\(text)'")
            }
            return .close(code: code)
        case .closeAfter:
            return .closeAfter(try milliseconds(try required(), maximum: 3_600_000))
        case .corrupt:
            let text = try required().lowercased()
            guard let corruption = Fault.FrameCorruption(rawValue: text) else {
                throw Problem("corrupt must be utf8, rsv or mask, not '\(text)'")
            }
            return .corrupt(corruption)
        case .skip: return .skip(try count())
        case .duplicate: return .duplicate(try count())
        case .lag: return .lag(try range(try required(), maximumMilliseconds: 60_000))
        }
    }

    /// The longest `retry-after` in seconds: the 429's reset header adds them to the clock, so they are bounded.
    static let maximumRetryAfterSeconds = 31_536_000

    private static func retryAfter(_ text: String) throws(Problem) -> Fault.RetryAfter {
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard (Int(text) ?? .max) <= maximumRetryAfterSeconds else {
                throw Problem("retry-after must be at most \(maximumRetryAfterSeconds) seconds (a year)")
            }
        } else if IMFFixdate.secondsSince1970(text) == nil {
            throw Problem("retry-after must be whole seconds or an HTTP-date like 'Wed, 21 Oct 2026 07:28:00 GMT'"
                          + " (IMF-fixdate: the right weekday, two-digit day, English month, GMT)")
        }
        return .parse(text)
    }
}
