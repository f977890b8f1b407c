// The admin API's replies (`/__understudy/…`) as the tests read them: only the fields they check, typed, so a
// field of the wrong type fails the decode instead of reading as nil.

/// `GET /__understudy/health`.
struct HealthReply: Decodable {
    let offline: Bool
    let heldConnections: Int
}

/// One rule, as `POST /__understudy/faults` returns it and `GET` lists it.
struct RuleReply: Decodable {
    let id: String
    let fault: String
    /// Nil for a rule without a budget (`times`).
    let remaining: Int?
    let fired: Int
}

/// `GET /__understudy/faults`.
struct RuleListReply: Decodable {
    let rules: [RuleReply]
}

/// One journal entry in `GET /__understudy/requests`.
struct JournalEntryReply: Decodable {
    let path: String
    let headers: [String: String]
    let status: Int
    let bytesWritten: Int
}

/// `GET /__understudy/requests`: the newest `limit` entries, and how many matched.
struct JournalReply: Decodable {
    let requests: [JournalEntryReply]
    let total: Int
}

/// A session, as `POST /__understudy/sessions` returns it and `GET` lists it.
struct SessionReply: Decodable {
    let id: String
    let seed: Int
}

/// `GET /__understudy/sessions`.
struct SessionListReply: Decodable {
    let sessions: [SessionReply]
}

/// `DELETE /__understudy/sessions/ID`: what ending the session removed.
struct EndedSessionReply: Decodable {
    let id: String
    let rules: Int
    let requests: Int
}

/// `PUT /__understudy/seed` and `GET /__understudy/seed`.
struct SeedReply: Decodable {
    let seed: Int
}

/// A `DELETE` of rules or journal entries: how many went.
struct DeletedReply: Decodable {
    let deleted: Int
}

extension HTTPTestClient {
    /// The server's held connections (streams, hangs, delayed replies), from its health route.
    func heldConnections() async throws -> Int {
        try await send("/__understudy/health").decode(HealthReply.self).heldConnections
    }
}
