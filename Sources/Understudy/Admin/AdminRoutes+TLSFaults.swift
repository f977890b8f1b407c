import UnderstudyJSON

extension AdminRoutes {
    /// `GET /__understudy/tls-faults`: what is set and what was presented (a failed handshake never reaches the
    /// journal).
    func listTLSFaults() throws(APIError) -> HTTPResponse {
        let queue = try tlsQueue()
        let presented = queue.presented
        let byServerName = queue.byServerName
        // Only when a name has one, so the reply keeps its bytes for a server with none.
        let named: [JSONObject.Entry] = byServerName.isEmpty ? []
            : [.init(key: "byServerName", value: .array(byServerName.map(AdminJSON.tlsFault)))]
        return json(.object(JSONObject([.init(key: "tlsFaults", value: .array(queue.queued.map(pending)))] + named + [
            .init(key: "presented", value: .number(JSONNumber(presented.count))),
            .init(key: "recent", value: .array(presented.recent.map(self.presented))),
        ])))
    }

    /// `POST {"fault": "expired", "times": 2}` queues a TLS fault for the next handshakes (after those queued),
    /// `POST {"fault": "reset", "serverName": "api.localhost"}` sets one for every handshake asking for that name.
    func addTLSFault(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let queue = try tlsQueue()
        let fault = try FaultJSON.tlsFault(try body(of: request))
        try set([fault], on: queue)
        switch fault.handshakes {
        case .next(let times):
            return json(pending(TLSFaultQueue.Pending(fault: fault.kind, remaining: times)), status: 201)
        case .serverName:
            return json(AdminJSON.tlsFault(fault), status: 201)
        }
    }

    /// The TLS fault queue, or a 409 when the server serves no HTTPS.
    func tlsQueue() throws(APIError) -> TLSFaultQueue {
        guard let queue = transport.tlsFaults else {
            throw APIError(409, "This server serves no HTTPS: start it with --tls or --tls-port to queue TLS faults")
        }
        return queue
    }

    /// Sets every fault of `faults`, or none of them: each is checked against the server's certificate first.
    func set(_ faults: [Fault.TLS], on queue: TLSFaultQueue) throws(APIError) {
        if let problem = faults.lazy.compactMap(queue.problem(with:)).first {
            throw APIError(400, "Invalid '\(problem.field)' - \(problem.reason)")
        }
        for fault in faults { queue.add(fault) }
    }

    /// The queue a scenario's TLS faults go to, once each is checked; nil when it sets none. A handshake comes
    /// before any request, so it carries no session: a scenario loaded into one may not set TLS faults.
    func tlsFaultQueue(for scenario: Scenario, session: String?) throws(APIError) -> TLSFaultQueue? {
        guard !scenario.tlsFaults.isEmpty else { return nil }
        guard session == nil else {
            throw APIError(400, "Invalid 'session' - the scenario sets tlsFaults, which take every client's handshakes "
                               + "(a handshake comes before any session header): load it without 'session'")
        }
        guard let queue = transport.tlsFaults else {
            throw APIError(409, "This server serves no HTTPS: start it with --tls or --tls-port to load a scenario with tlsFaults")
        }
        if let problem = scenario.tlsFaults.lazy.compactMap(queue.problem(with:)).first {
            throw APIError(400, "Invalid 'scenario' - tlsFaults: '\(problem.field)' \(problem.reason)")
        }
        return queue
    }

    private func pending(_ pending: TLSFaultQueue.Pending) -> JSONValue {
        .object(JSONObject([
            .init(key: "fault", value: .string(pending.fault.rawValue)),
            .init(key: "remaining", value: .number(JSONNumber(pending.remaining))),
        ]))
    }

    private func presented(_ presented: TLSFaultQueue.Presented) -> JSONValue {
        .object(JSONObject([
            .init(key: "fault", value: .string(presented.fault.rawValue)),
            .init(key: "serverName", value: presented.serverName.map(JSONValue.string) ?? .null),
            .init(key: "time", value: .string(Timestamp.iso8601(presented.time))),
        ]))
    }
}
