/// What a TLS handshake goes wrong with, on purpose: the certificate a pinning or trust test must refuse, or a reset.
///
/// Each kind is also served on every handshake whose SNI name is ``serverName`` (`expired.localhost`, …), for a
/// client that can choose its host.
public enum TLSFaultKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A certificate from the server's CA for the right names that ended 30 days ago.
    case expired
    /// A certificate from the server's CA for `wrong.host.invalid` only: a hostname mismatch.
    case wrongHost = "wrong-host"
    /// A certificate for the right names from a CA no client trusts.
    case unknownIssuer = "unknown-issuer"
    /// A certificate for the right names signed by its own key.
    case selfSigned = "self-signed"
    /// A certificate valid in every way but over another key: only a client pinning the key that
    /// `understudy tls pin` printed refuses it.
    case wrongKey = "wrong-key"
    /// The TCP connection is reset once the ClientHello is read, with no alert.
    case reset

    /// The SNI name that always presents this fault, e.g. `expired.localhost` (`untrusted.localhost` is a second
    /// name for ``unknownIssuer``). Curl and browsers resolve `.localhost` names to the loopback address.
    public var serverName: String { "\(rawValue).localhost" }
}
