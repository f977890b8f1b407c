import COpenSSL

/// The certificates and keys TLS faults present, made once when the server starts: each wrong in one way only, so
/// a client's error names that way (expired, hostname mismatch, unknown issuer, self-signed) and nothing else.
///
/// Not Sendable by itself: filled in by `init` and only read after (by `SSL_use_certificate`, which takes its own
/// reference), inside `ServerTLSContext`.
struct TLSFaultIdentities {
    /// The name `wrong-host` is for: `.invalid` never resolves (RFC 6761), so no client can mean it.
    static let wrongHostName = "wrong.host.invalid"

    private var identities: [TLSFaultKind: (certificate: Certificate, key: PrivateKey)] = [:]

    /// Certificates for `names`; those meant to chain to the server's CA are signed by `ca` (the local CA's, or,
    /// serving your own certificate, a CA made for the purpose that no client trusts either).
    init(names: [SubjectName], ca: (certificate: Certificate, key: PrivateKey), now: Double) throws(TLSError) {
        let day = 86_400.0
        let current = (from: now - CertificateIssuer.backdateSeconds, until: now + 30 * day)
        let stranger = try PrivateKey.generateP256()
        let strangerCA = try CertificateIssuer.issueCA(key: stranger, now: now, commonName: "Understudy unknown CA")
        let plans: [(TLSFaultKind, [SubjectName], (certificate: Certificate, key: PrivateKey)?, (from: Double, until: Double))] = [
            (.expired, names, ca, (now - 90 * day, now - 30 * day)),
            (.wrongHost, [SubjectName(host: TLSFaultIdentities.wrongHostName)].compactMap { $0 }, ca, current),
            (.unknownIssuer, names, (strangerCA, stranger), current),
            (.selfSigned, names, nil, current),
            (.wrongKey, names, ca, current),
        ]
        for (fault, names, issuer, validity) in plans {
            // A client asking for the fault by SNI name checks that name first: it is on the certificate, so the
            // client's error names the fault rather than a hostname mismatch (except for wrong-host, of course).
            let names = fault == .wrongHost ? names : names + fault.serverNames.compactMap(SubjectName.init(host:))
            let key = try PrivateKey.generateP256()
            let certificate = try CertificateIssuer.issueLeaf(key: key, names: names, ca: issuer, from: validity.from,
                                                              until: validity.until)
            identities[fault] = (certificate, key)
        }
    }

    /// Makes `ssl` present the fault's certificate instead of the server's; false when OpenSSL refuses (then the
    /// connection is dropped rather than served correctly by mistake). A reset presents nothing.
    func present(_ fault: TLSFaultKind, on ssl: OpaquePointer) -> Bool {
        guard let identity = identities[fault] else { return true }
        return SSL_use_certificate(ssl, identity.certificate.pointer) == 1 && SSL_use_PrivateKey(ssl, identity.key.pointer) == 1
    }
}
