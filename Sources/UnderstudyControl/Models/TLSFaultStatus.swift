/// `GET /__understudy/tls-faults`: the TLS faults queued for the next handshakes and those set for SNI names, and
/// those already presented (a handshake that fails on purpose never becomes a request, so it is counted here
/// rather than in the journal).
public struct TLSFaultStatus: Sendable, Hashable, Decodable {
    /// The faults waiting, oldest first; each takes the next ``QueuedTLSFault/remaining`` handshakes.
    public let queued: [QueuedTLSFault]
    /// The faults set for SNI names, in the order set (names lower-cased).
    public let byServerName: [Fault.TLS]
    /// Handshakes that went wrong on purpose since the server started, queued or asked for by SNI name.
    public let presented: Int
    /// The last 50 of those, oldest first.
    public let recent: [PresentedTLSFault]

    private enum CodingKeys: String, CodingKey {
        case queued = "tlsFaults", byServerName, presented, recent
    }

    /// Reads the reply; the server leaves `byServerName` out when no name has a fault.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        queued = try container.decode([QueuedTLSFault].self, forKey: .queued)
        byServerName = try container.decodeIfPresent([Fault.TLS].self, forKey: .byServerName) ?? []
        presented = try container.decode(Int.self, forKey: .presented)
        recent = try container.decode([PresentedTLSFault].self, forKey: .recent)
    }
}

/// One TLS fault in the queue.
public struct QueuedTLSFault: Sendable, Hashable, Decodable {
    /// A fault as queued, e.g. to compare with what ``ControlClient/tlsFaults()`` lists.
    public init(fault: TLSFaultKind, remaining: Int) {
        self.fault = fault
        self.remaining = remaining
    }

    /// What the handshakes go wrong with.
    public let fault: TLSFaultKind
    /// How many more handshakes it takes.
    public let remaining: Int
}

/// One handshake that went wrong on purpose.
public struct PresentedTLSFault: Sendable, Hashable, Decodable {
    /// What it went wrong with.
    public let fault: TLSFaultKind
    /// The SNI name that asked for it (`expired.localhost`, …, or one a fault was set for), or nil when a queued
    /// fault took the handshake.
    public let serverName: String?
    /// When, ISO 8601 in UTC.
    public let time: String
}
