extension Fault {
    /// A TLS fault: what handshakes go wrong with (``TLSFaultKind``), and which ones.
    ///
    /// A handshake comes before any request, so no directive of a spec can ask for one, and no session can own
    /// one: a TLS fault is set on the whole server, by `UnderstudyControl`'s `addTLSFault(_:)`, by a scenario's
    /// `tlsFaults` (`ScenarioDocument`, a scenario file) or by `POST /__understudy/tls-faults`, and takes the next
    /// handshakes or those for one SNI name, whoever makes them.
    ///
    /// ```swift
    /// Fault.TLS(.expired, times: 2)                     // the next two handshakes
    /// Fault.TLS(.reset, serverName: "api.localhost")     // every handshake for api.localhost
    /// ```
    ///
    /// In JSON (a scenario's `tlsFaults`, the admin API) it is `{"fault": "expired", "times": 2}` or
    /// `{"fault": "reset", "serverName": "api.localhost"}`.
    public struct TLS: Sendable, Hashable, CustomStringConvertible {
        /// Which handshakes a TLS fault takes.
        public enum Handshakes: Sendable, Hashable {
            /// The next this many handshakes (1 to 10,000), after those already queued; then it is spent.
            case next(Int)
            /// Every handshake whose SNI name is this host name (case-insensitive), until the TLS faults are
            /// cleared. The server's certificate must carry the name (`localhost`, or one given with
            /// `--allow-host`), so that the client's error names the fault rather than a hostname mismatch;
            /// `wrong-host` and `reset` take any name. A queued fault takes a handshake first.
            case serverName(String)
        }

        /// How many handshakes ``Handshakes/next(_:)`` may take at most.
        public static let maximumTimes = 10_000

        /// What the handshakes go wrong with.
        public var kind: TLSFaultKind
        /// Which handshakes.
        public var handshakes: Handshakes

        /// The next `times` handshakes go wrong with `kind`.
        ///
        /// - Parameters:
        ///   - kind: What they go wrong with.
        ///   - times: How many, 1 to ``maximumTimes``; the server refuses others.
        public init(_ kind: TLSFaultKind, times: Int = 1) {
            self.kind = kind
            handshakes = .next(times)
        }

        /// Every handshake for `serverName` goes wrong with `kind`.
        ///
        /// - Parameters:
        ///   - kind: What they go wrong with.
        ///   - serverName: The SNI name, a host name (clients send none for an IP address).
        public init(_ kind: TLSFaultKind, serverName: String) {
            self.kind = kind
            handshakes = .serverName(serverName)
        }

        /// The fault in words, e.g. `expired × 2` or `reset for api.localhost`.
        public var description: String {
            switch handshakes {
            case .next(let times): "\(kind.rawValue) × \(times)"
            case .serverName(let name): "\(kind.rawValue) for \(name)"
            }
        }
    }
}

extension Fault.TLS: Codable {
    private enum CodingKeys: String, CodingKey {
        case fault, times, serverName
    }

    /// Reads `{"fault", "times"}` or `{"fault", "serverName"}`, as the admin API and a scenario's `tlsFaults` take
    /// them; neither is the next handshake.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(TLSFaultKind.self, forKey: .fault)
        let times = try container.decodeIfPresent(Int.self, forKey: .times)
        switch (times, try container.decodeIfPresent(String.self, forKey: .serverName)) {
        case (_?, _?):
            throw DecodingError.dataCorruptedError(forKey: .serverName, in: container,
                                                   debugDescription: "give either 'times' or 'serverName', not both")
        case (nil, let name?): handshakes = .serverName(name)
        case (let times, nil): handshakes = .next(times ?? 1)
        }
    }

    /// Writes `{"fault", "times"}` or `{"fault", "serverName"}`.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .fault)
        switch handshakes {
        case .next(let times): try container.encode(times, forKey: .times)
        case .serverName(let name): try container.encode(name, forKey: .serverName)
        }
    }
}
