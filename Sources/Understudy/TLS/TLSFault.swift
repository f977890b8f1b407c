/// What the next TLS handshakes go wrong with (`POST /__understudy/tls-faults`): the certificate a pinning or
/// trust test must refuse, or a connection reset after the ClientHello.
enum TLSFault: String, CaseIterable, Sendable {
    /// Signed by the local CA for the right names, but ended 30 days ago.
    case expired
    /// Signed by the local CA, for `wrong.host.invalid` only.
    case wrongHost = "wrong-host"
    /// For the right names, signed by a CA no client trusts.
    case unknownIssuer = "unknown-issuer"
    /// For the right names, signed by its own key.
    case selfSigned = "self-signed"
    /// Valid in every way (the local CA, the right names, current) over another key: only a client pinning the
    /// key `understudy tls pin` printed refuses it.
    case wrongKey = "wrong-key"
    /// The TCP connection is reset once the ClientHello is read, with no alert.
    case reset
}

extension TLSFault {
    /// The SNI names that always present this fault, in the style of badssl.com: `expired.localhost`,
    /// `wrong-host.localhost`, … and `untrusted.localhost` for an unknown issuer too. `.localhost` names resolve to
    /// the loopback address in curl and browsers (RFC 6761), and never leave the machine.
    var serverNames: [String] {
        self == .unknownIssuer ? ["\(rawValue).localhost", "untrusted.localhost"] : ["\(rawValue).localhost"]
    }

    /// The fault an SNI name always presents, if it is one of ``serverNames`` (case-insensitive, as DNS is).
    init?(serverName: String) {
        let name = serverName.lowercased()
        guard let fault = TLSFault.allCases.first(where: { $0.serverNames.contains(name) }) else { return nil }
        self = fault
    }
}
