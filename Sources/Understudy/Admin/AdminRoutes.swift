import UnderstudyJSON

/// The admin API under `/__understudy/`: rules, sessions, the journal, the seed, offline and reset. JSON in and
/// out; every mistake is a 400 `{"message"}` naming the field. HEAD is answered wherever GET is, as on the public
/// routes (the event loop leaves the body out). Runs on the event loop.
struct AdminRoutes {
    static let prefix = "/__understudy"
    /// Admin bodies are small; anything larger is refused before parsing.
    static let maximumBodySize = 64 << 10

    let faults: FaultController
    let journal: Journal
    let transport: any TransportControls
    /// The upstream, the recorder and the replayed recording's routes (`/__understudy/recording`).
    let recording: RecordingControls

    func respond(to request: HTTPRequest) -> HTTPResponse {
        // Ids are percent-decoded segments, so a session id with a space or a slash can be named in a path.
        let segments = request.path.dropFirst(AdminRoutes.prefix.count).split(separator: "/").map(QueryParameters.decodePath)
        do throws(APIError) {
            guard request.body.count <= AdminRoutes.maximumBodySize else {
                throw APIError(413, "Admin request bodies are limited to \(AdminRoutes.maximumBodySize) bytes")
            }
            if request.method == "POST" || request.method == "PUT", !request.body.isEmpty {
                try AdminRoutes.checkContentType(of: request)
            }
            // HEAD reads as GET for routing only: the 405 for a HEAD still names HEAD.
            return try route(request, method: request.method == "HEAD" ? "GET" : request.method, segments)
        } catch {
            return error.response
        }
    }

    private func route(_ request: HTTPRequest, method: String, _ segments: [String]) throws(APIError) -> HTTPResponse {
        switch (method, segments.first, segments.count) {
        case ("GET", "health"?, 1):
            return json(.object(JSONObject([
                .init(key: "status", value: .string("ok")),
                .init(key: "version", value: .string(Understudy.version)),
                .init(key: "seed", value: .number(JSONNumber(seed: faults.seed))),
                .init(key: "rules", value: .number(JSONNumber(faults.rules.count))),
                .init(key: "requests", value: .number(JSONNumber(journal.count))),
                .init(key: "offline", value: .bool(transport.isOffline)),
                .init(key: "heldConnections", value: .number(JSONNumber(transport.heldReplies))),
                // Only with HTTPS, so a plain server's reply keeps its bytes; the control room shows TLS faults then.
            ] + (transport.tlsFaults == nil ? [] : [.init(key: "https", value: .bool(true))]))))
        case (_, "recording"?, _) where AdminRoutes.serves(method, segments):
            // `allowedMethods` is the one list of what the recording routes answer; `recordingRoute` dispatches.
            return try recordingRoute(request, method: method, segments)
        case ("GET", "faults"?, 1):
            return json(.object(JSONObject([.init(key: "rules", value: .array(faults.rules.map(AdminJSON.rule)))])))
        case ("POST", "faults"?, 1):
            let rule = try AdminJSON.decodeRule(try body(of: request))
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
        case ("DELETE", "faults"?, 1):
            return deleted(faults.removeAll(session: request.query["session"]))
        case ("GET", "faults"?, 2):
            guard let rule = faults.rules.first(where: { $0.id == segments[1] }) else { throw noRule(segments[1]) }
            return json(AdminJSON.rule(rule))
        case ("DELETE", "faults"?, 2):
            guard let removed = faults.remove(id: segments[1]) else { throw noRule(segments[1]) }
            return json(AdminJSON.rule(removed))
        case ("GET", "requests"?, 1):
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
        case ("DELETE", "requests"?, 1):
            return deleted(journal.clear(session: request.query["session"]))
        case ("GET", "sessions"?, 1):
            let sessions = faults.sessions.filter { !$0.id.isEmpty }.map {
                AdminJSON.session(id: $0.id, seed: $0.seed, profile: faults.profile(ofSession: $0.id))
            }
            return json(.object(JSONObject([.init(key: "sessions", value: .array(sessions))])))
        case ("POST", "sessions"?, 1):
            let fields = try body(of: request)
            try AdminJSON.allowOnly(["id", "seed", "profile"], in: fields)
            let id = fields["id"]?.stringValue ?? "session-\(journal.nextID())"
            guard fields["id"] == nil || fields["id"]?.stringValue != nil,
                  FaultController.problem(withSessionID: id) == nil else {
                throw APIError(400, "Invalid 'id' - must be a non-empty string of at most \(FaultBook.maximumSessionIDLength) bytes")
            }
            let seed = try fields["seed"].map { value throws(APIError) in try AdminJSON.seed(value) }
            let profile = try fields["profile"].map { value throws(APIError) in try AdminJSON.profile(value) }
            let chosen = faults.startSession(id, seed: seed, profile: profile)
            return json(AdminJSON.session(id: id, seed: chosen, profile: profile), status: 201)
        case ("DELETE", "sessions"?, 2):
            let id = segments[1]
            let ended = faults.end(session: id)
            guard ended.hadSession || ended.rules > 0 || ended.requests > 0 else {
                throw APIError(404, "No session '\(id)': no session was started with that id, and no rule or request has it")
            }
            return json(.object(JSONObject([
                .init(key: "id", value: .string(id)),
                .init(key: "rules", value: .number(JSONNumber(ended.rules))),
                .init(key: "requests", value: .number(JSONNumber(ended.requests))),
            ])))
        case ("POST", "reset"?, 1):
            faults.reset()
            journal.clear()
            return .message("Rules, sessions and the journal are cleared", status: 200)
        case ("POST", "offline"?, 1):
            let fields = try body(of: request)
            try AdminJSON.allowOnly(["seconds"], in: fields)
            guard let seconds = fields["seconds"]?.doubleValue, seconds > 0, seconds <= 600 else {
                throw APIError(400, "Invalid 'seconds' - must be a number greater than 0 and at most 600")
            }
            transport.goOffline(forMilliseconds: Int(seconds * 1_000))
            return .message("Refusing connections for \(seconds) s", status: 200)
        case ("GET", "scenarios"?, 1):
            return json(.object(JSONObject([.init(key: "scenarios", value: .array(Scenario.shipped.compactMap { shipped in
                Scenario.shipped(named: shipped.name).map { scenario in
                    .object(JSONObject([
                        .init(key: "name", value: .string(shipped.name)),
                        .init(key: "description", value: .string(scenario.description)),
                        .init(key: "rules", value: .number(JSONNumber(scenario.rules.count))),
                    ]))
                }
            }))])))
        case ("POST", "scenarios"?, 1):
            return try loadScenario(try body(of: request))
        case ("GET", "seed"?, 1):
            return json(.object(JSONObject([.init(key: "seed", value: .number(JSONNumber(seed: faults.seed)))])))
        case ("PUT", "seed"?, 1):
            let fields = try body(of: request)
            try AdminJSON.allowOnly(["seed"], in: fields)
            guard let value = fields["seed"] else { throw APIError(400, "Invalid 'seed' - required") }
            let seed = try AdminJSON.seed(value)
            faults.reseed(seed)
            return json(.object(JSONObject([.init(key: "seed", value: .number(JSONNumber(seed: seed)))])))
        case (_, "tls-faults"?, 1) where AdminRoutes.serves(method, segments):
            return try tlsFaults(request, method: method)
        case (_, _?, 1...2) where AdminRoutes.allowedMethods(segments) != nil:
            let listed = AdminRoutes.allowedMethods(segments) ?? []
            let allowed = listed.contains("GET") ? listed + ["HEAD"] : listed
            throw APIError(405, "Method \(request.method) is not allowed on \(request.path); use \(allowed.joined(separator: ", "))",
                           headers: ["Allow": allowed.joined(separator: ", ")])
        default:
            throw APIError(404, "Admin route \(request.method) \(request.path) not found; see /__understudy/health, faults, requests, sessions, reset, offline, seed, scenarios, events")
        }
    }

    /// Whether the admin resource at `segments` answers `method` (HEAD reads as GET by then).
    static func serves(_ method: String, _ segments: [String]) -> Bool {
        allowedMethods(segments)?.contains(method) ?? false
    }

    /// The methods each admin resource answers, for 405s; HEAD comes with GET.
    static func allowedMethods(_ segments: [String]) -> [String]? {
        switch (segments.first ?? "", segments.count) {
        case ("health", 1): ["GET"]
        case ("requests", 1): ["GET", "DELETE"]
        case ("faults", 1): ["GET", "POST", "DELETE"]
        case ("faults", 2): ["GET", "DELETE"]
        case ("sessions", 1): ["GET", "POST"]
        case ("sessions", 2): ["DELETE"]
        case ("reset", 1), ("offline", 1): ["POST"]
        case ("seed", 1): ["GET", "PUT"]
        case ("scenarios", 1): ["GET", "POST"]
        case ("recording", 1): ["GET", "POST", "DELETE"]
        case ("recording", 2) where segments[1] == "snapshot": ["POST"]
        case ("tls-faults", 1): ["GET", "POST", "DELETE"]
        default: nil
        }
    }

    /// `{"name": "outage-then-recovery"}` (a shipped scenario) or `{"scenario": {description, seed, rules}}`, with
    /// an optional `session` every rule is scoped to: adds the rules after those in place, and takes the
    /// scenario's seed (the session's, when one is named), then sets its TLS faults. Answers the rules added and
    /// the TLS faults set.
    private func loadScenario(_ fields: JSONObject) throws(APIError) -> HTTPResponse {
        try AdminJSON.allowOnly(["name", "scenario", "session"], in: fields)
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

    func body(of request: HTTPRequest) throws(APIError) -> JSONObject {
        guard !request.body.isEmpty else { return JSONObject() }
        do {
            guard case .object(let object) = try JSONParser.parse(request.body) else {
                throw APIError(400, "Invalid JSON body: expected an object")
            }
            return object
        } catch let error as JSONParseError {
            throw APIError(400, "Invalid JSON body: \(error)")
        } catch {
            throw APIError(400, "Invalid JSON body: expected an object")
        }
    }

    /// Admin bodies are JSON. A body with no type, a JSON type, or the urlencoded type with JSON in it (what
    /// `curl -d` sends) is read as JSON; any other declared type is a 415 naming it, as on the public routes.
    static func checkContentType(of request: HTTPRequest) throws(APIError) {
        guard let declared = request.headers["Content-Type"] else { return }
        let type = (declared.split(separator: ";").first.map(String.init) ?? declared).trimmingJSWhitespace().lowercased()
        if type.isEmpty || type == "application/json" || type.hasSuffix("+json") { return }
        let firstByte = request.body.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) })
        if type == "application/x-www-form-urlencoded", firstByte == UInt8(ascii: "{") { return }
        throw APIError(415, "Unsupported Content-Type '\(type)'; the admin API takes application/json bodies")
    }

    func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        .json(JSONWriter.encode(value), status: status)
    }

    func deleted(_ count: Int) -> HTTPResponse {
        json(.object(JSONObject([.init(key: "deleted", value: .number(JSONNumber(count)))])))
    }

    private func noRule(_ id: String) -> APIError {
        APIError(404, "No fault rule with id '\(id)'")
    }
}
