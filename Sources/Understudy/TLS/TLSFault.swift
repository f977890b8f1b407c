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
