import UnderstudyJSON

/// The admin API's rules, journal, sessions, seed, scenarios and offline switch.
extension AdminRoutes {
    func health() -> HTTPResponse {
        json(.object(JSONObject([
            .init(key: "status", value: .string("ok")),
            .init(key: "version", value: .string(Understudy.version)),
            .init(key: "seed", value: .number(JSONNumber(seed: faults.seed))),
            .init(key: "rules", value: .number(JSONNumber(faults.rules.count))),
            .init(key: "requests", value: .number(JSONNumber(journal.count))),
            .init(key: "offline", value: .bool(transport.isOffline)),
            .init(key: "heldConnections", value: .number(JSONNumber(transport.heldReplies))),
            // Only with HTTPS, a document (`--spec`) or a contract check (`--upstream --spec`), so other servers'
            // replies keep their bytes; the control room shows its TLS faults, document and contract panels then.
        ] + (transport.tlsFaults == nil ? [] : [.init(key: "https", value: .bool(true))])
          + (spec == nil ? [] : [.init(key: "spec", value: .bool(true))])
          + (contract == nil ? [] : [.init(key: "contract", value: .bool(true))]))))
    }

    func addRule(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let rule = try FaultJSON.rule(try body(of: request))
        do {
            return json(AdminJSON.rule(try faults.add(rule)), status: 201)
        } catch {
            // The parser's fields too, so a client can point at the directive without reading the sentence.
            return json(.object(JSONObject([
                .init(key: "message", value: .string("Invalid 'fault': \(error.description)")),
                .init(key: "directive", value: .string(error.directive)),
                .init(key: "position", value: .number(JSONNumber(error.position))),
                .init(key: "reason", value: .string(error.reason)),
            ])), status: 400)
        }
    }

    func requests(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let limit = try request.query["limit"].map { text throws(APIError) -> Int in
            guard let value = Int(text), value >= 0 else { throw APIError(400, "Invalid 'limit' - must be a whole number") }
            return value
        }
        // `total` counts every match, so a client asking for the newest few learns how many there are.
        let found = journal.matching(session: request.query["session"], path: request.query["path"],
                                     method: request.query["method"], limit: limit)
        return json(.object(JSONObject([
            .init(key: "requests", value: .array(found.entries.map(AdminJSON.entry))),
            .init(key: "total", value: .number(JSONNumber(found.total))),
        ])))
    }

    func sessions() -> HTTPResponse {
        let sessions = faults.sessions.filter { !$0.id.isEmpty }.map {
            AdminJSON.session(id: $0.id, seed: $0.seed, profile: faults.profile(ofSession: $0.id))
        }
        return json(.object(JSONObject([.init(key: "sessions", value: .array(sessions))])))
    }

    func startSession(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let fields = try body(of: request)
        try FaultJSON.allowOnly(["id", "seed", "profile"], in: fields)
        let id = fields["id"]?.stringValue ?? "session-\(journal.nextID())"
        guard fields["id"] == nil || fields["id"]?.stringValue != nil,
              FaultController.problem(withSessionID: id) == nil else {
            throw APIError(400, "Invalid 'id' - must be a non-empty string of at most \(FaultBook.maximumSessionIDLength) bytes")
        }
        let seed = try fields["seed"].map { value throws(APIError) in try AdminJSON.seed(value) }
        let profile = try fields["profile"].map { value throws(APIError) in try AdminJSON.profile(value) }
        let chosen = faults.startSession(id, seed: seed, profile: profile)
        return json(AdminJSON.session(id: id, seed: chosen, profile: profile), status: 201)
    }

    func endSession(_ id: String) throws(APIError) -> HTTPResponse {
        let ended = faults.end(session: id)
        guard ended.hadSession || ended.rules > 0 || ended.requests > 0 else {
            throw APIError(404, "No session '\(id)': no session was started with that id, and no rule or request has it")
        }
        return json(.object(JSONObject([
            .init(key: "id", value: .string(id)),
            .init(key: "rules", value: .number(JSONNumber(ended.rules))),
            .init(key: "requests", value: .number(JSONNumber(ended.requests))),
        ])))
    }

    func goOffline(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let fields = try body(of: request)
        try FaultJSON.allowOnly(["seconds"], in: fields)
        guard let seconds = fields["seconds"]?.doubleValue, seconds > 0, seconds <= 600 else {
            throw APIError(400, "Invalid 'seconds' - must be a number greater than 0 and at most 600")
        }
        transport.goOffline(forMilliseconds: Int(seconds * 1_000))
        return .message("Refusing connections for \(seconds) s", status: 200)
    }

    func scenarios() -> HTTPResponse {
        json(.object(JSONObject([.init(key: "scenarios", value: .array(Scenario.shipped.compactMap { shipped in
            Scenario.shipped(named: shipped.name).map { scenario in
                .object(JSONObject([
                    .init(key: "name", value: .string(shipped.name)),
                    .init(key: "description", value: .string(scenario.description)),
                    .init(key: "rules", value: .number(JSONNumber(scenario.rules.count))),
                ]))
            }
        }))])))
    }

    func reseed(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let fields = try body(of: request)
        try FaultJSON.allowOnly(["seed"], in: fields)
        guard let value = fields["seed"] else { throw APIError(400, "Invalid 'seed' - required") }
        let seed = try AdminJSON.seed(value)
        faults.reseed(seed)
        return json(.object(JSONObject([.init(key: "seed", value: .number(JSONNumber(seed: seed)))])))
    }

    /// `{"name": "outage-then-recovery"}` (a shipped scenario) or `{"scenario": {description, seed, rules}}`, with
    /// an optional `session` every rule is scoped to: adds the rules after those in place, and takes the
    /// scenario's seed (the session's, when one is named), then sets its TLS faults. Answers the rules added and
    /// the TLS faults set.
    func loadScenario(_ fields: JSONObject) throws(APIError) -> HTTPResponse {
        try FaultJSON.allowOnly(["name", "scenario", "session"], in: fields)
        let scenario: Scenario
        var name = "scenario"
        switch (fields["name"], fields["scenario"]) {
        case (let value?, nil):
            guard let text = value.stringValue else { throw APIError(400, "Invalid 'name' - must be a string") }
            guard let shipped = Scenario.shipped(named: text) else {
                throw APIError(400, "Invalid 'name' - no shipped scenario '\(text)'; try \(Scenario.shipped.map(\.name).joined(separator: ", "))")
            }
            scenario = shipped
            name = text
        case (nil, let value?):
            guard case .object = value else { throw APIError(400, "Invalid 'scenario' - must be an object with a \"rules\" array") }
            do {
                scenario = try Scenario.parse(JSONWriter.encode(value), file: "scenario")
            } catch {
                throw APIError(400, "Invalid 'scenario' - \(error.path.map { "\($0): " } ?? "")\(error.reason)")
            }
        default:
            throw APIError(400, "Invalid body - give either 'name' (a shipped scenario) or 'scenario' (its JSON)")
        }
        let session = try fields["session"].map { value throws(APIError) -> String in
            guard let id = value.stringValue, FaultController.problem(withSessionID: id) == nil else {
                throw APIError(400, "Invalid 'session' - must be a non-empty string of at most \(FaultBook.maximumSessionIDLength) bytes")
            }
            return id
        }
        let tlsQueue = try tlsFaultQueue(for: scenario, session: session)
        var added: [JSONValue] = []
        for var rule in scenario.rules {
            if let session { rule.session = session }
            do {
                added.append(AdminJSON.rule(try faults.add(rule)))
            } catch {
                throw APIError(400, "Invalid 'scenario' - \(error.description)")
            }
        }
        for fault in scenario.tlsFaults { tlsQueue?.add(fault) }
        if let seed = scenario.seed {
            if let session { faults.startSession(session, seed: seed) } else { faults.reseed(seed) }
        }
        // Only for a scenario that sets some, so every other reply keeps its bytes.
        let tlsFaults: [JSONObject.Entry] = scenario.tlsFaults.isEmpty ? []
            : [.init(key: "tlsFaults", value: .array(scenario.tlsFaults.map(AdminJSON.tlsFault)))]
        return json(.object(JSONObject([
            .init(key: "name", value: .string(name)),
            .init(key: "description", value: .string(scenario.description)),
            .init(key: "seed", value: scenario.seed.map { .number(JSONNumber(seed: $0)) } ?? .null),
            .init(key: "session", value: session.map(JSONValue.string) ?? .null),
            .init(key: "rules", value: .array(added)),
        ] + tlsFaults)), status: 201)
    }
}
