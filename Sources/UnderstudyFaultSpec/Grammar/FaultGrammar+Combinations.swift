extension FaultGrammar {
    /// Refuses a directive that could never change anything next to the earlier ones: one given twice, or one
    /// that clashes with an earlier directive (`status=503; empty`).
    static func checkAgainst(_ earlier: [Written], _ directive: Written) throws(Problem) {
        let name = directive.name
        if let first = earlier.first(where: { $0.name == name }) {
            throw Problem("'\(name.rawValue)' is already given at position \(first.position); give each directive once")
        }
        for other in earlier {
            if let reason = clash(name.role, other.name.role) ?? profileClash(name, other.name) {
                throw Problem("cannot be combined with '\(other.written)' at position \(other.position): \(reason)")
            }
        }
    }

    /// Why directives of these roles cannot both be in one spec, or nil when they can.
    private static func clash(_ role: Fault.Directive.Role, _ other: Fault.Directive.Role) -> String? {
        let pair = [role, other]
        // The request body is read before the reply is decided, so its rate goes with any reply.
        if pair.contains(.upload) { return nil }
        if pair.contains(.connection), !pair.contains(.other) {
            return "each decides the whole reply"
        }
        if pair.contains(.status), [.truncation, .malformed, .expireToken, .stream, .socket].contains(where: pair.contains) {
            return "status replaces the reply, so the other would change nothing"
        }
        if pair.contains(.stream), [.truncation, .pacing, .stall, .malformed].contains(where: pair.contains) {
            return "one applies only to /products/stream and WebSockets, the other only to a body sent whole"
        }
        if pair.contains(.socket), [.truncation, .pacing, .stall, .malformed].contains(where: pair.contains) {
            return "one applies only to WebSockets, the other only to a body sent whole"
        }
        if pair.allSatisfy({ $0 == .truncation || $0 == .pacing }) || (pair.contains(.stall) && pair.contains(.truncation)) {
            return "only one of them can decide how the body is sent"
        }
        return nil
    }

    /// A profile sets the rates, the latency and the pauses: a directive for any of them next to it is refused
    /// rather than silently overriding one or the other.
    private static func profileClash(_ name: Fault.Directive.Name, _ other: Fault.Directive.Name) -> String? {
        let pair = [name, other]
        guard pair.contains(.profile) else { return nil }
        let covered: [Fault.Directive.Name] = [.delay, .jitter, .rate, .uprate, .chunks, .stall]
        guard covered.contains(where: pair.contains) else { return nil }
        return "the profile sets the rates, the latency and the pauses; give a profile or those directives"
    }

    /// `message` and `retry-after` only shape a status reply: alone they would change nothing.
    static func checkCompanions(_ directives: [Written]) throws(FaultSpecError) {
        var status: Int?
        var hasRateLimit = false
        var closes = false
        for written in directives {
            if case .status(let code) = written.directive { status = code }
            if case .rateLimit = written.directive { hasRateLimit = true }
            if written.name == .close || written.name == .closeAfter { closes = true }
        }
        if let message = directives.first(where: { $0.name == .message }) {
            if status == nil, !hasRateLimit, !closes {
                throw message.error("'message' needs status=CODE, rate-limit=… or close=CODE to go with: on its own it "
                                    + "changes nothing")
            }
            if let reason = message.value, closes, status == nil, reason.utf8.count > 123 {
                throw message.error("a close reason is at most 123 bytes (a control frame holds 125 with the code)")
            }
            if status == 204 { throw message.error("a 204 has no body, so 'message' would change nothing") }
        }
        if let retryAfter = directives.first(where: { $0.name == .retryAfter }) {
            if status == nil {
                throw retryAfter.error("'retry-after' needs status=CODE to go with: on its own it changes nothing"
                                       + " (a rate-limit sets its own Retry-After)")
            }
            if status == 204 { throw retryAfter.error("a 204 carries no Retry-After, so 'retry-after' would change nothing") }
        }
    }
}
