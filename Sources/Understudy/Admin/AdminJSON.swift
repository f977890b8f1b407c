import UnderstudyJSON
import UnderstudyOpenAPI

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
            .init(key: "firstByteMs", value: milliseconds(entry.firstByteMilliseconds)),
            .init(key: "durationMs", value: milliseconds(entry.durationMilliseconds)),
        ]
        // Only a paced reply has a rate worth reporting, and only a forwarded one says what the upstream did:
        // every other entry reads as it always has.
        if let rate = entry.achievedBytesPerSecond {
            members.append(.init(key: "achievedBytesPerSecond", value: .number(JSONNumber(rate))))
        }
        if let upstream = entry.upstream {
            members.append(.init(key: "upstream", value: .object(JSONObject([
                .init(key: "status", value: .number(JSONNumber(upstream.status))),
                .init(key: "ms", value: milliseconds(upstream.milliseconds)),
                .init(key: "failure", value: upstream.failure.map(JSONValue.string) ?? .null),
            ]))))
            // Only an exchange held to a document that broke it says so.
            if !upstream.violations.isEmpty {
                members.append(.init(key: "violations", value: .array(upstream.violations.map(\.json))))
            }
        }
        if let socket = entry.socket {
            members.append(.init(key: "socket", value: socketJSON(socket)))
        }
        return .object(JSONObject(members))
    }

    /// Milliseconds to the microsecond, or null.
    private static func milliseconds(_ value: Double?) -> JSONValue {
        value.map { .number(JSONNumber(($0 * 1_000).rounded() / 1_000)) } ?? .null
    }

    /// A WebSocket's transcript: `{"records": [{"direction", "type", "bytes", "ms", "closeCode", "fault"}], "leftOut"}`.
    static func socketJSON(_ socket: SocketTranscript) -> JSONValue {
        .object(JSONObject([
            .init(key: "records", value: .array(socket.records.map { record in
                .object(JSONObject([
                    .init(key: "direction", value: .string(record.direction.rawValue)),
                    .init(key: "type", value: .string(record.kind.rawValue)),
                    .init(key: "bytes", value: .number(JSONNumber(record.bytes))),
                    .init(key: "ms", value: milliseconds(record.milliseconds)),
                    .init(key: "closeCode", value: record.closeCode.map { .number(JSONNumber($0)) } ?? .null),
                    .init(key: "fault", value: record.fault.map(JSONValue.string) ?? .null),
                ]))
            })),
            .init(key: "leftOut", value: .number(JSONNumber(socket.leftOut))),
        ]))
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

    /// A seed: any 64-bit unsigned integer, read from the number's text, so a derived seed the server reported
    /// (which uses the full range, past the 2^53 a `Double` keeps) opens the same session again.
    static func seed(_ value: JSONValue) throws(APIError) -> UInt64 {
        guard case .number(let number) = value, let seed = number.unsignedInteger else {
            throw APIError(400, "Invalid 'seed' - must be a whole number from 0 to \(UInt64.max)")
        }
        return seed
    }

    private static func dictionary(_ values: [String: String]) -> JSONValue {
        .object(JSONObject(values.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) }))
    }
}
