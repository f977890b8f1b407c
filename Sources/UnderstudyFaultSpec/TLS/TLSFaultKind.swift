/// What a TLS handshake goes wrong with, on purpose: the certificate a pinning or trust test must refuse, or a reset.
///
/// One list for the server, which presents them, and for `UnderstudyControl`, which asks for them; ``Fault/TLS``
/// says which handshakes get one. Each kind is also served on every handshake whose SNI name is ``serverName``
/// (`expired.localhost`, …), for a client that can choose its host.
public enum TLSFaultKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Expired 30 days ago, otherwise right: a client reports an expired certificate.
    case expired
    /// Issued for `wrong.host.invalid` only: a client reports a hostname mismatch.
    case wrongHost = "wrong-host"
    /// Issued by a CA nobody trusts: a client reports an unknown issuer.
    case unknownIssuer = "unknown-issuer"
    /// Signed by its own key: a client reports a self-signed certificate.
    case selfSigned = "self-signed"
    /// Trusted, current and for the right names, over a key other than the leaf's, signed by the same CA: a client
    /// pinning the leaf's key refuses it; one pinning the CA's accepts it.
    case wrongKey = "wrong-key"
    /// No certificate at all: the connection is reset after the ClientHello.
    case reset

    /// The SNI name that always presents this fault, e.g. `expired.localhost` (`untrusted.localhost` is a second
    /// name for ``unknownIssuer``). Curl and browsers resolve `.localhost` names to the loopback address.
    public var serverName: String { "\(rawValue).localhost" }

    /// Every SNI name that always presents this fault: ``serverName``, and `untrusted.localhost` for
    /// ``unknownIssuer``, in the style of badssl.com. `.localhost` names never leave the machine (RFC 6761).
    public var serverNames: [String] {
        self == .unknownIssuer ? [serverName, "untrusted.localhost"] : [serverName]
    }

    /// The kind a fixed SNI name always presents, if it is one of ``serverNames`` (case-insensitive, as DNS is).
    ///
    /// - Parameter serverName: The name a client sent.
    public init?(serverName: String) {
        let name = serverName.lowercased()
        guard let kind = TLSFaultKind.allCases.first(where: { $0.serverNames.contains(name) }) else { return nil }
        self = kind
    }

    /// Whether the certificate this kind presents carries the server's own names, so that a client reaching the
    /// server by one of them reports this kind and nothing else (not ``wrongHost``, whose certificate is for
    /// another name on purpose, nor ``reset``, which presents none).
    package var presentsServerNames: Bool { self != .wrongHost && self != .reset }
}
