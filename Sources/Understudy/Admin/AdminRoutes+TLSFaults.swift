import UnderstudyJSON

extension AdminRoutes {
    /// `/__understudy/tls-faults`: `POST {"fault": "expired", "times": 2}` queues a TLS fault for the next
    /// handshakes (after those queued), `GET` lists what is queued, `DELETE` drops it all.
    func tlsFaults(_ request: HTTPRequest, method: String) throws(APIError) -> HTTPResponse {
        guard let queue = transport.tlsFaults else {
            throw APIError(409, "This server serves no HTTPS: start it with --tls or --tls-port to queue TLS faults")
        }
        switch method {
        case "POST":
            let fields = try body(of: request)
            try AdminJSON.allowOnly(["fault", "times"], in: fields)
            let names = TLSFault.allCases.map(\.rawValue).joined(separator: ", ")
            guard let text = fields["fault"]?.stringValue, let fault = TLSFault(rawValue: text) else {
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
            return json(.object(JSONObject([.init(key: "tlsFaults", value: .array(queue.queued.map(pending)))])))
        }
    }

    private func pending(_ pending: TLSFaultQueue.Pending) -> JSONValue {
        .object(JSONObject([
            .init(key: "fault", value: .string(pending.fault.rawValue)),
            .init(key: "remaining", value: .number(JSONNumber(pending.remaining))),
        ]))
    }
}
