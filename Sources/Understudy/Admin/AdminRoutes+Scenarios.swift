import UnderstudyJSON

extension AdminRoutes {
    /// `POST /__understudy/scenarios`: `{"name": "<shipped>"}` or `{"scenario": {description, seed, rules}}`, with
    /// an optional `session` that scopes the rules and the seed. The scenario is checked whole before anything is
    /// added, so a bad one changes nothing.
    func loadScenario(_ fields: JSONObject) throws(APIError) -> HTTPResponse {
        try AdminJSON.allowOnly(["name", "scenario", "session"], in: fields)
        var session: String?
        if let value = fields["session"], value != .null {
            guard let id = value.stringValue, FaultController.problem(withSessionID: id) == nil else {
                throw APIError(400, "Invalid 'session' - must be a non-empty string of at most \(FaultBook.maximumSessionIDLength) bytes")
            }
            session = id
        }
        let shippedNames = Scenario.shipped.keys.sorted().joined(separator: ", ")
        let name: String?
        let scenario: Scenario
        switch (fields["name"], fields["scenario"]) {
        case (let value?, nil):
            guard let text = value.stringValue else { throw APIError(400, "Invalid 'name' - must be a string") }
            guard let found = Scenario.shipped(named: text) else {
                throw APIError(404, "No scenario '\(text)'; shipped: \(shippedNames)")
            }
            (name, scenario) = (text, found)
        case (nil, let value?):
            guard case .object = value else {
                throw APIError(400, "Invalid 'scenario' - must be an object with a \"rules\" array")
            }
            do {
                scenario = try Scenario.parse(JSONWriter.encode(value), file: "scenario")
            } catch {
                throw APIError(400, "Invalid 'scenario': " + (error.path.map { "\($0): " } ?? "") + error.reason)
            }
            name = nil
        default:
            throw APIError(400, "Give 'name' (a shipped scenario: \(shippedNames)) or 'scenario' (a scenario document), not both")
        }
        if let seed = scenario.seed {
            if let session { faults.startSession(session, seed: seed) } else { faults.reseed(seed) }
        }
        var added: [JSONValue] = []
        for var rule in scenario.rules {
            if let session { rule.session = session }
            do {
                added.append(AdminJSON.rule(try faults.add(rule)))
            } catch {
                throw APIError(400, "Invalid 'scenario': \(error.description)")
            }
        }
        return .json(JSONWriter.encode(.object(JSONObject([
            .init(key: "name", value: name.map(JSONValue.string) ?? .null),
            .init(key: "description", value: .string(scenario.description)),
            .init(key: "seed", value: scenario.seed.map { .number(JSONNumber(seed: $0)) } ?? .null),
            .init(key: "rules", value: .array(added)),
        ]))), status: 201)
    }
}
