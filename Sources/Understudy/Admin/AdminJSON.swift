import UnderstudyJSON

/// The admin API's JSON: rules and journal entries out, rules in, with errors that name the field.
enum AdminJSON {
    static func rule(_ status: FaultRuleStatus) -> JSONValue {
        let rule = status.rule
        var match = JSONObject()
        if let method = rule.match.method { match["method"] = .string(method) }
        if let path = rule.match.path { match["path"] = .string(path) }
        if !rule.match.headers.isEmpty { match["header"] = dictionary(rule.match.headers) }
        if !rule.match.query.isEmpty { match["query"] = dictionary(rule.match.query) }
        return .object(JSONObject([
            .init(key: "id", value: .string(status.id)),
            .init(key: "match", value: .object(match)),
            .init(key: "fault", value: .string(rule.fault)),
            .init(key: "times", value: rule.times.map { .number(JSONNumber($0)) } ?? .null),
            .init(key: "remaining", value: status.remaining.map { .number(JSONNumber($0)) } ?? .null),
            .init(key: "after", value: .number(JSONNumber(rule.after))),
            .init(key: "probability", value: .number(JSONNumber(rule.probability))),
            .init(key: "session", value: rule.session.map(JSONValue.string) ?? .null),
            .init(key: "matched", value: .number(JSONNumber(status.matched))),
            .init(key: "fired", value: .number(JSONNumber(status.fired))),
        ]))
    }

    static func entry(_ entry: JournalEntry) -> JSONValue {
        let optionalNumber: (Double?) -> JSONValue = { $0.map { .number(JSONNumber(($0 * 1_000).rounded() / 1_000)) } ?? .null }
        var members: [JSONObject.Entry] = [
            .init(key: "id", value: .number(JSONNumber(entry.id))),
            .init(key: "time", value: .string(Timestamp.iso8601(entry.time))),
            .init(key: "session", value: entry.session.map(JSONValue.string) ?? .null),
            .init(key: "method", value: .string(entry.method)),
            .init(key: "path", value: .string(entry.path)),
            .init(key: "query", value: .string(entry.query)),
            .init(key: "headers", value: .object(JSONObject(entry.headers.map { .init(key: $0.name, value: .string($0.value)) }))),
            .init(key: "bodySize", value: .number(JSONNumber(entry.bodySize))),
            .init(key: "rule", value: entry.rule.map(JSONValue.string) ?? .null),
            .init(key: "fault", value: entry.fault.map(JSONValue.string) ?? .null),
            .init(key: "status", value: .number(JSONNumber(entry.status))),
            .init(key: "bytesWritten", value: .number(JSONNumber(entry.bytesWritten))),
            .init(key: "firstByteMs", value: optionalNumber(entry.firstByteMilliseconds)),
            .init(key: "durationMs", value: optionalNumber(entry.durationMilliseconds)),
        ]
        // Only a paced reply has a rate worth reporting, and only a forwarded one says what the upstream did:
        // every other entry reads as it always has.
        if let rate = entry.achievedBytesPerSecond {
            members.append(.init(key: "achievedBytesPerSecond", value: .number(JSONNumber(rate))))
        }
        if let upstream = entry.upstream {
            members.append(.init(key: "upstream", value: .object(JSONObject([
                .init(key: "status", value: .number(JSONNumber(upstream.status))),
                .init(key: "ms", value: optionalNumber(upstream.milliseconds)),
                .init(key: "failure", value: upstream.failure.map(JSONValue.string) ?? .null),
            ]))))
        }
        return .object(JSONObject(members))
    }

    static func session(id: String, seed: UInt64, profile: Fault.NetworkProfile? = nil) -> JSONValue {
        var members: [JSONObject.Entry] = [.init(key: "id", value: .string(id)),
                                            .init(key: "seed", value: .number(JSONNumber(seed: seed)))]
        // Only a throttled session says so: an unthrottled one reads as it always has.
        if let profile { members.append(.init(key: "profile", value: .string(profile.name))) }
        return .object(JSONObject(members))
    }

    /// A session's `"profile"`: a Network Link Conditioner preset's name.
    static func profile(_ value: JSONValue) throws(APIError) -> Fault.NetworkProfile {
        let known = Fault.NetworkProfile.all.map(\.name).joined(separator: ", ")
        guard let name = value.stringValue, let profile = Fault.NetworkProfile.named(name) else {
            throw APIError(400, "Invalid 'profile' - must be one of: \(known)")
        }
        return profile
    }

    /// A rule from `{"match": {...}, "fault": "...", "times", "after", "probability", "session"}`.
    static func decodeRule(_ fields: JSONObject) throws(APIError) -> FaultRule {
        try allowOnly(["match", "fault", "times", "after", "probability", "session"], in: fields)
        guard let fault = fields["fault"]?.stringValue, !fault.isEmpty else {
            throw APIError(400, "Invalid 'fault' - required: a fault spec such as \"status=503; retry-after=1\"")
        }
        var match = FaultRule.Match()
        if let value = fields["match"] {
            guard case .object(let object) = value else { throw APIError(400, "Invalid 'match' - must be an object") }
            try allowOnly(["method", "path", "header", "headers", "query"], in: object, prefix: "match.")
            match.method = try string(object["method"], "match.method")?.uppercased()
            match.path = try string(object["path"], "match.path")
            match.headers = try strings(object["header"] ?? object["headers"], "match.header")
            match.query = try strings(object["query"], "match.query")
        }
        let times = try integer(fields["times"], "times", minimum: 1)
        let after = try integer(fields["after"], "after", minimum: 0) ?? 0
        var probability = 1.0
        if let value = fields["probability"], value != .null {
            guard let number = value.doubleValue, (0...1).contains(number) else {
                throw APIError(400, "Invalid 'probability' - must be a number from 0 to 1")
            }
            probability = number
        }
        let session = try string(fields["session"], "session")
        if let session, let problem = FaultController.problem(withSessionID: session) {
            throw APIError(400, "Invalid 'session' - \(problem); leave it out for a rule that applies to every request")
        }
        return FaultRule(match: match, fault: fault, times: times, after: after, probability: probability, session: session)
    }

    /// A seed: any 64-bit unsigned integer, read from the number's text, so a derived seed the server reported
    /// (which uses the full range, past the 2^53 a `Double` keeps) opens the same session again.
    static func seed(_ value: JSONValue) throws(APIError) -> UInt64 {
        guard case .number(let number) = value, let seed = number.unsignedInteger else {
            throw APIError(400, "Invalid 'seed' - must be a whole number from 0 to \(UInt64.max)")
        }
        return seed
    }

    static func allowOnly(_ keys: Set<String>, in object: JSONObject, prefix: String = "") throws(APIError) {
        if let unknown = object.keys.first(where: { !keys.contains($0) }) {
            throw APIError(400, "Unknown field '\(prefix)\(unknown)'; expected \(keys.sorted().map { prefix + $0 }.joined(separator: ", "))")
        }
    }

    private static func string(_ value: JSONValue?, _ name: String) throws(APIError) -> String? {
        guard let value, value != .null else { return nil }
        guard let string = value.stringValue else { throw APIError(400, "Invalid '\(name)' - must be a string") }
        return string
    }

    private static func strings(_ value: JSONValue?, _ name: String) throws(APIError) -> [String: String] {
        guard let value, value != .null else { return [:] }
        guard case .object(let object) = value else { throw APIError(400, "Invalid '\(name)' - must be an object of strings") }
        var result: [String: String] = [:]
        for entry in object.entries {
            guard let string = entry.value.stringValue else { throw APIError(400, "Invalid '\(name).\(entry.key)' - must be a string") }
            result[entry.key] = string
        }
        return result
    }

    private static func integer(_ value: JSONValue?, _ name: String, minimum: Int) throws(APIError) -> Int? {
        guard let value, value != .null else { return nil }
        guard let int = value.intValue, int >= minimum else {
            throw APIError(400, "Invalid '\(name)' - must be a whole number of \(minimum) or more")
        }
        return int
    }

    private static func dictionary(_ values: [String: String]) -> JSONValue {
        .object(JSONObject(values.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) }))
    }
}
