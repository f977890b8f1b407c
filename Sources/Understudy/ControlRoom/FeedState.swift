import UnderstudyJSON
/// What the control room shows besides requests: the rules with their counters, offline, the seed and the
/// sessions. The feed takes one of these on a timer while it has subscribers and sends what changed, so changes
/// made from any thread (the admin API, or `server.faults` in Swift) reach the page without the fault code
/// knowing the feed exists.
struct FeedState: Equatable {
    var rules: [FaultRuleStatus] = []
    /// Milliseconds until the server accepts connections again (0: online).
    var offlineMillisecondsLeft: Double = 0
    var seed: UInt64 = 0
    var sessions: [Session] = []

    struct Session: Equatable {
        var id: String
        var seed: UInt64
    }

    var isOffline: Bool { offlineMillisecondsLeft > 0 }

    /// The whole state, sent first to every subscriber.
    var snapshotEvent: FeedEvent {
        FeedEvent(name: "state", data: .object(JSONObject([
            .init(key: "rules", value: .array(rules.map(AdminJSON.rule))),
            .init(key: "offline", value: offlineJSON),
            .init(key: "seed", value: .number(JSONNumber(seed: seed))),
            .init(key: "sessions", value: sessionsJSON),
        ])))
    }

    /// The events that take a viewer of `old` to `self`: rules added, fired (any counter moved) and removed;
    /// offline on or off; the seed; the sessions.
    func changes(since old: FeedState) -> [FeedEvent] {
        var events: [FeedEvent] = []
        let oldRules = Dictionary(old.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(rules.map(\.id))
        for rule in old.rules where !newIDs.contains(rule.id) {
            events.append(FeedEvent(name: "rule-removed", data: .object(JSONObject([.init(key: "id", value: .string(rule.id))]))))
        }
        for rule in rules {
            if let before = oldRules[rule.id] {
                if before != rule { events.append(FeedEvent(name: "rule-fired", data: AdminJSON.rule(rule))) }
            } else {
                events.append(FeedEvent(name: "rule-added", data: AdminJSON.rule(rule)))
            }
        }
        if isOffline != old.isOffline {
            events.append(FeedEvent(name: "offline", data: offlineJSON))
        }
        if seed != old.seed {
            events.append(FeedEvent(name: "seed", data: .object(JSONObject([.init(key: "seed", value: .number(JSONNumber(seed: seed)))]))))
        }
        if sessions != old.sessions {
            events.append(FeedEvent(name: "sessions", data: .object(JSONObject([.init(key: "sessions", value: sessionsJSON)]))))
        }
        return events
    }

    /// `{"active": Bool, "secondsLeft": Number}`: the page counts down from it on its own.
    private var offlineJSON: JSONValue {
        .object(JSONObject([
            .init(key: "active", value: .bool(isOffline)),
            .init(key: "secondsLeft", value: .number(JSONNumber((offlineMillisecondsLeft / 100).rounded(.up) / 10))),
        ]))
    }

    private var sessionsJSON: JSONValue {
        .array(sessions.map { AdminJSON.session(id: $0.id, seed: $0.seed) })
    }
}
