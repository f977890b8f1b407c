import UnderstudyJSON

extension AdminJSON {
    /// A TLS fault as it was set: `{"fault", "times"}` or `{"fault", "serverName"}`.
    static func tlsFault(_ fault: Fault.TLS) -> JSONValue {
        let which: JSONObject.Entry = switch fault.handshakes {
        case .next(let times): .init(key: "times", value: .number(JSONNumber(times)))
        case .serverName(let name): .init(key: "serverName", value: .string(name))
        }
        return .object(JSONObject([.init(key: "fault", value: .string(fault.kind.rawValue)), which]))
    }
}
