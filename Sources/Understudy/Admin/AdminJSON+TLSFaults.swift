import UnderstudyJSON

extension AdminJSON {
    /// A TLS fault from `{"fault": "expired", "times": 2}` or `{"fault": "reset", "serverName": "api.localhost"}`,
    /// as `POST /__understudy/tls-faults` and a scenario's `tlsFaults` take it: the one reader of both.
    static func decodeTLSFault(_ fields: JSONObject) throws(APIError) -> Fault.TLS {
        try allowOnly(["fault", "times", "serverName"], in: fields)
        let names = TLSFaultKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = fields["fault"]?.stringValue, let kind = TLSFaultKind(rawValue: text) else {
            throw APIError(400, "Invalid 'fault' - must be one of \(names)")
        }
        let fault: Fault.TLS
        if let value = fields["serverName"] {
            guard fields["times"] == nil else {
                throw APIError(400, "Invalid 'serverName' - give either 'times' (the next handshakes) or 'serverName' "
                                   + "(every handshake for that name), not both")
            }
            fault = Fault.TLS(kind, serverName: value.stringValue ?? "")
        } else {
            // Not a whole number: 0, which is out of range, so the error is the range's.
            let times = fields["times"].map { $0.doubleValue.flatMap { Int(exactly: $0) } ?? 0 } ?? 1
            fault = Fault.TLS(kind, times: times)
        }
        if let problem = TLSFaultQueue.problem(with: fault, certificateNames: nil) {
            throw APIError(400, "Invalid '\(problem.field)' - \(problem.reason)")
        }
        return fault
    }

    /// A TLS fault as it was set: `{"fault", "times"}` or `{"fault", "serverName"}`.
    static func tlsFault(_ fault: Fault.TLS) -> JSONValue {
        let which: JSONObject.Entry = switch fault.handshakes {
        case .next(let times): .init(key: "times", value: .number(JSONNumber(times)))
        case .serverName(let name): .init(key: "serverName", value: .string(name))
        }
        return .object(JSONObject([.init(key: "fault", value: .string(fault.kind.rawValue)), which]))
    }
}
