import UnderstudyJSON

extension AdminRoutes {
    /// `/__understudy/tls-faults`: `POST {"fault": "expired", "times": 2}` queues a TLS fault for the next
    /// handshakes (after those queued), `GET` lists what is queued and what was presented (a failed handshake never
    /// reaches the journal), `DELETE` drops what is queued.
    func tlsFaults(_ request: HTTPRequest, method: String) throws(APIError) -> HTTPResponse {
        guard let queue = transport.tlsFaults else {
            throw APIError(409, "This server serves no HTTPS: start it with --tls or --tls-port to queue TLS faults")
        }
        switch method {
        case "POST":
            let fields = try body(of: request)
            try AdminJSON.allowOnly(["fault", "times"], in: fields)
            let names = TLSFaultKind.allCases.map(\.rawValue).joined(separator: ", ")
            guard let text = fields["fault"]?.stringValue, let fault = TLSFaultKind(rawValue: text) else {
                throw APIError(400, "Invalid 'fault' - must be one of \(names)")
            }
            let times = fields["times"].map { $0.doubleValue.flatMap { Int(exactly: $0) } } ?? 1
            guard let times, (1...10_000).contains(times) else {
                throw APIError(400, "Invalid 'times' - must be a whole number from 1 to 10000")
            }
            queue.add(fault, times: times)
            return json(pending(TLSFaultQueue.Pending(fault: fault, remaining: times)), status: 201)
        case "DELETE":
            return deleted(queue.removeAll())
        default:
            let presented = queue.presented
            return json(.object(JSONObject([
                .init(key: "tlsFaults", value: .array(queue.queued.map(pending))),
                .init(key: "presented", value: .number(JSONNumber(presented.count))),
                .init(key: "recent", value: .array(presented.recent.map(self.presented))),
            ])))
        }
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
