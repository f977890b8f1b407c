import COpenSSL

/// Makes the local CA and the leaf it signs, to the rules Apple's platforms check for a TLS server certificate: a
/// SAN for every name, EKU serverAuth, at most 825 days, SHA-256, and a CA with basicConstraints CA:TRUE and
/// keyCertSign. Keys are ECDSA P-256.
enum CertificateIssuer {
    /// The CA lasts ten years: trusting it again is the chore a user should rarely repeat.
    static let caLifetimeDays = 3_650
    /// 397 days: within Apple's 825 for a user-trusted CA and the 398 browsers hold public CAs to; renewed
    /// 30 days before it ends (`CertificateRenewal`), so the short life costs nothing.
    static let leafLifetimeDays = 397
    /// Valid from an hour before it was made, so a clock a little behind (a simulator, a VM) accepts it at once.
    static let backdateSeconds = 3_600.0

    /// A self-signed CA over `key`.
    static func issueCA(key: PrivateKey, now: Double, commonName: String = "Understudy local CA") throws(TLSError) -> Certificate {
        try issue(commonName: commonName, key: key, issuer: nil, signer: key, from: now - backdateSeconds,
                  until: now + Double(caLifetimeDays) * 86_400,
                  extensions: [
                      (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                      (NID_key_usage, "critical,keyCertSign,cRLSign"),
                      (NID_subject_key_identifier, "hash"),
                  ])
    }

    /// A server certificate for `names`, over `key`, signed by the CA, valid from now for `leafLifetimeDays`.
    static func issueLeaf(key: PrivateKey, names: [SubjectName], ca: Certificate, caKey: PrivateKey,
                          now: Double) throws(TLSError) -> Certificate {
        try issueLeaf(key: key, names: names, ca: (ca, caKey), from: now - backdateSeconds,
                      until: now + Double(leafLifetimeDays) * 86_400)
    }

    /// A server certificate for `names` over `key`, valid from `from` until `until` (seconds since 1970), signed by
    /// `ca`'s key, or by `key` itself (self-signed) when `ca` is nil.
    static func issueLeaf(key: PrivateKey, names: [SubjectName], ca: (certificate: Certificate, key: PrivateKey)?,
                          from: Double, until: Double) throws(TLSError) -> Certificate {
        let alternativeNames = names.map(\.extensionValue).joined(separator: ",")
        return try issue(commonName: names.first?.value ?? "localhost", key: key, issuer: ca?.certificate,
                         signer: ca?.key ?? key, from: from, until: until, extensions: [
                             (NID_basic_constraints, "critical,CA:FALSE"),
                             (NID_key_usage, "critical,digitalSignature"),
                             (NID_ext_key_usage, "serverAuth"),
                             (NID_subject_alt_name, alternativeNames),
                             (NID_subject_key_identifier, "hash"),
                             (NID_authority_key_identifier, "keyid:always"),
                         ])
    }

    private static func issue(commonName: String, key: PrivateKey, issuer: Certificate?, signer: PrivateKey, from: Double,
                              until: Double, extensions: [(Int32, String)]) throws(TLSError) -> Certificate {
        guard let made = X509_new() else { throw TLSError.openSSL("cannot make a certificate") }
        let certificate = Certificate(taking: made)
        let serial = UInt64.random(in: 1...UInt64(Int64.max))
        guard X509_set_version(made, 2) == 1, ASN1_INTEGER_set_uint64(X509_get_serialNumber(made), serial) == 1,
              ASN1_TIME_set(X509_getm_notBefore(made), time_t(from)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(made), time_t(until)) != nil,
              X509_set_pubkey(made, key.pointer) == 1, let subject = X509_get_subject_name(made) else {
            throw TLSError.openSSL("cannot fill in the certificate for \(commonName)")
        }
        for (field, value) in [("O", "Understudy"), ("CN", commonName)] {
            guard X509_NAME_add_entry_by_txt(subject, field, MBSTRING_ASC, Array(value.utf8), Int32(value.utf8.count), -1, 0) == 1 else {
                throw TLSError.openSSL("cannot name the certificate \(commonName)")
            }
        }
        guard X509_set_issuer_name(made, issuer.map { X509_get_subject_name($0.pointer) } ?? subject) == 1 else {
            throw TLSError.openSSL("cannot name the issuer of \(commonName)")
        }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? made, made, nil, nil, 0)
        for (identifier, value) in extensions {
            guard let made = X509V3_EXT_conf_nid(nil, &context, identifier, value) else {
                throw TLSError.openSSL("cannot add the extension '\(value)' to \(commonName)")
            }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(certificate.pointer, made, -1) == 1 else {
                throw TLSError.openSSL("cannot add the extension '\(value)' to \(commonName)")
            }
        }
        guard X509_sign(made, signer.pointer, EVP_sha256()) > 0 else {
            throw TLSError.openSSL("cannot sign the certificate for \(commonName)")
        }
        return certificate
    }
}
