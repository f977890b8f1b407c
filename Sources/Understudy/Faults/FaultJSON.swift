import UnderstudyJSON

/// The JSON forms of a fault rule and a TLS fault, as the admin API and scenario files take them: the one reader of
/// both, with errors that name the field.
enum FaultJSON {
    /// A rule from `{"match": {...}, "fault": "...", "times", "after", "probability", "session"}`.
    static func rule(_ fields: JSONObject) throws(APIError) -> FaultRule {
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

    /// A TLS fault from `{"fault": "expired", "times": 2}` or `{"fault": "reset", "serverName": "api.localhost"}`,
    /// as `POST /__understudy/tls-faults` and a scenario's `tlsFaults` take it: the one reader of both.
    static func tlsFault(_ fields: JSONObject) throws(APIError) -> Fault.TLS {
        try allowOnly(["fault", "times", "serverName"], in: fields)
        let names = TLSFaultKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = fields["fault"]?.stringValue, let kind = TLSFaultKind(rawValue: text) else {
            throw APIError(400, "Invalid 'fault' - must be one of \(names)")
        }
        let fault: Fault.TLS
        if let value = fields["serverName"] {
            guard fields["times"] == nil else {
                throw APIError(400, "Invalid 'serverName' - give either 'times' (the next handshakes) or 'serverName' "
                                   + "(every handshake for that name), not both")
            }
            fault = Fault.TLS(kind, serverName: value.stringValue ?? "")
        } else {
            // Not a whole number: 0, which is out of range, so the error is the range's.
            let times = fields["times"].map { $0.doubleValue.flatMap { Int(exactly: $0) } ?? 0 } ?? 1
            fault = Fault.TLS(kind, times: times)
        }
        if let problem = TLSFaultQueue.problem(with: fault, certificateNames: nil) {
            throw APIError(400, "Invalid '\(problem.field)' - \(problem.reason)")
        }
        return fault
    }

    static func allowOnly(_ keys: Set<String>, in object: JSONObject, prefix: String = "") throws(APIError) {
        if let unknown = object.keys.first(where: { !keys.contains($0) }) {
            throw APIError(400, "Unknown field '\(prefix)\(unknown)'; expected \(keys.sorted().map { prefix + $0 }.joined(separator: ", "))")
        }
    }

    /// A string field, nil when absent or null; a 400 naming it when it is anything else.
    static func string(_ value: JSONValue?, _ name: String) throws(APIError) -> String? {
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
}
