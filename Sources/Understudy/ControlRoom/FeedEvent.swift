import UnderstudyJSON
/// One event of the control room's feed (`GET /__understudy/events`), as server-sent event bytes.
///
/// Requests carry their journal id as the event id, so `Last-Event-ID` resumes the feed from the journal; every
/// other event (state, rules, offline, seed, sessions) has no id field, which leaves the client's last id as it
/// was (sse.md, rule 5). Data is one line of compact JSON, which never holds a raw newline.
struct FeedEvent: Equatable {
    /// The SSE `event:` type: `state`, `request`, `skipped`, `rule-added`, `rule-fired`, `rule-removed`, `offline`, `seed`,
    /// `sessions`.
    var name: String
    /// The journal id of a `request` event.
    var id: Int?
    var data: JSONValue

    /// The event's wire form: `id:` (requests only), `event:`, one `data:` line, and the blank line.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        if let id { out += Array("id: \(id)\n".utf8) }
        out += Array("event: \(name)\ndata: ".utf8)
        out += JSONWriter.encode(data)
        out += [10, 10]
        return out
    }

    /// The feed's first bytes: how long an `EventSource` waits before reconnecting.
    static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(milliseconds)\n\n".utf8)
    }

    /// A comment line: keeps proxies and idle timeouts from closing a quiet feed.
    static let heartbeat: [UInt8] = Array(": heartbeat\n\n".utf8)

    static func request(_ entry: JournalEntry) -> FeedEvent {
        FeedEvent(name: "request", id: entry.id, data: AdminJSON.entry(entry))
    }
}
