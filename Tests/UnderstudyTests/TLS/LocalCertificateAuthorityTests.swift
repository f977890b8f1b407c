import COpenSSL
import Foundation
import Testing
@testable import Understudy

/// The local CA and its leaf, read back and checked with OpenSSL against the rules Apple's platforms apply.
@Suite struct LocalCertificateAuthorityTests {
    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("understudy-ca-\(UUID().uuidString)").path
    }

    func certificate(_ path: String) throws -> Certificate {
        try Certificate(pem: AtomicFile.read(path), source: path)
    }

    @Test func theLeafMeetsApplesRulesAndChainsToTheCA() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = LocalCertificateAuthority(directory: directory)
        let now = Date()
        #expect(try authority.prepare(hostNames: ["dev.example", "192.168.7.9"], now: now) == .createdAuthority("no usable local CA"))
        let leaf = try certificate(authority.certificatePath)
        let ca = try certificate(authority.caCertificatePath)

        // SAN: every name, as a DNS name or an IP address, and nothing else.
        #expect(Set(leaf.subjectAltNames) == ["localhost", "127.0.0.1", "::1", "dev.example", "192.168.7.9"])
        #expect(X509_check_host(leaf.pointer, "localhost", 9, 0, nil) == 1)
        #expect(X509_check_host(leaf.pointer, "evil.example", 12, 0, nil) == 0)
        #expect(X509_check_ip_asc(leaf.pointer, "::1", 0) == 1)
        #expect(X509_check_ip_asc(leaf.pointer, "127.0.0.1", 0) == 1)
        // EKU serverAuth, a leaf's key usage, not a CA.
        #expect(X509_get_extension_flags(leaf.pointer) & UInt32(EXFLAG_XKUSAGE) != 0)
        #expect(X509_get_extended_key_usage(leaf.pointer) == UInt32(XKU_SSL_SERVER))
        #expect(X509_get_key_usage(leaf.pointer) == UInt32(KU_DIGITAL_SIGNATURE))
        #expect(X509_check_ca(leaf.pointer) == 0)
        // At most 825 days, valid now.
        #expect(leaf.notAfter - leaf.notBefore <= 825 * 86_400)
        #expect(leaf.notBefore <= now.timeIntervalSince1970 && now.timeIntervalSince1970 < leaf.notAfter)
        // ECDSA P-256, signed with SHA-256.
        let key = try #require(X509_get0_pubkey(leaf.pointer))
        #expect(EVP_PKEY_get_base_id(key) == EVP_PKEY_EC)
        #expect(EVP_PKEY_get_bits(key) == 256)
        #expect(X509_get_signature_nid(leaf.pointer) == NID_ecdsa_with_SHA256)
        // The CA: basicConstraints CA:TRUE and keyCertSign, and the leaf verifies against it alone.
        #expect(X509_check_ca(ca.pointer) == 1)
        #expect(X509_get_key_usage(ca.pointer) & UInt32(KU_KEY_CERT_SIGN) != 0)
        #expect(X509_get_signature_nid(ca.pointer) == NID_ecdsa_with_SHA256)
        #expect(verify(leaf, against: ca) == X509_V_OK)
    }

    func verify(_ leaf: Certificate, against ca: Certificate) -> Int32 {
        let store = X509_STORE_new()
        let context = X509_STORE_CTX_new()
        defer {
            X509_STORE_CTX_free(context)
            X509_STORE_free(store)
        }
        X509_STORE_add_cert(store, ca.pointer)
        X509_STORE_CTX_init(context, store, leaf.pointer, nil)
        X509_VERIFY_PARAM_set_purpose(X509_STORE_CTX_get0_param(context), X509_PURPOSE_SSL_SERVER)
        _ = X509_verify_cert(context)
        return X509_STORE_CTX_get_error(context)
    }

    @Test func keysArePrivateAndFilesAreReusedAsTheyAre() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = LocalCertificateAuthority(directory: directory)
        try authority.prepare()
        let paths = [authority.caCertificatePath, authority.caKeyPath, authority.certificatePath, authority.keyPath]
        let before = try paths.map { try AtomicFile.read($0) }
        #expect(try authority.prepare() == .reused)
        #expect(try paths.map { try AtomicFile.read($0) } == before)
        func mode(_ path: String) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(authority.keyPath) == 0o600)
        #expect(try mode(authority.caKeyPath) == 0o600)
        #expect(try mode(authority.certificatePath) == 0o644)
        #expect(try mode(directory) == 0o700)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func theLeafIsRenewedBeforeItEndsAndWhenNamesChangeUnderTheSameCA() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = LocalCertificateAuthority(directory: directory)
        let start = Date()
        try authority.prepare(now: start)
        let ca = try AtomicFile.read(authority.caCertificatePath)
        let leaf = try AtomicFile.read(authority.certificatePath)

        let late = start.addingTimeInterval(Double(CertificateIssuer.leafLifetimeDays - 29) * 86_400)
        #expect(try authority.prepare(now: late) == .renewedCertificate("the certificate ends within 30 days"))
        #expect(try AtomicFile.read(authority.caCertificatePath) == ca)
        #expect(try AtomicFile.read(authority.certificatePath) != leaf)
        #expect(try certificate(authority.certificatePath).notAfter > late.timeIntervalSince1970 + 300 * 86_400)

        guard case .renewedCertificate = try authority.prepare(hostNames: ["box.lan"], now: late) else {
            Issue.record("a new name did not renew the leaf")
            return
        }
        #expect(try certificate(authority.certificatePath).subjectAltNames.contains("box.lan"))
        #expect(try AtomicFile.read(authority.caCertificatePath) == ca)
    }

    @Test func withoutNamesACurrentLeafIsKeptAndARenewedOneKeepsItsNames() throws {
        let authority = LocalCertificateAuthority(directory: Self.temporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: authority.directory) }
        let start = Date()
        try authority.prepare(hostNames: ["box.lan"], now: start)
        let leaf = try AtomicFile.read(authority.certificatePath)
        #expect(try authority.prepare(hostNames: nil, now: start) == .reused)
        #expect(try AtomicFile.read(authority.certificatePath) == leaf)
        let late = start.addingTimeInterval(Double(CertificateIssuer.leafLifetimeDays - 1) * 86_400)
        #expect(try authority.prepare(hostNames: nil, now: late) == .renewedCertificate("the certificate ends within 30 days"))
        #expect(try certificate(authority.certificatePath).subjectAltNames.contains("box.lan"))
    }

    @Test func anEndingOrBrokenCAIsMadeAgain() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = LocalCertificateAuthority(directory: directory)
        try authority.prepare()
        let ca = try AtomicFile.read(authority.caCertificatePath)
        let nearEnd = Date().addingTimeInterval(Double(CertificateIssuer.caLifetimeDays - 10) * 86_400)
        #expect(try authority.prepare(now: nearEnd) == .createdAuthority("the local CA ends within 30 days"))
        #expect(try AtomicFile.read(authority.caCertificatePath) != ca)

        try AtomicFile.write(Array("not a certificate".utf8), to: authority.caCertificatePath, mode: 0o644)
        #expect(try authority.prepare() == .replacedAuthority(
            "\(authority.caCertificatePath) and \(authority.caKeyPath) were not a certificate and its key"))
        // A leaf signed by another CA's key is not reused.
        let other = LocalCertificateAuthority(directory: Self.temporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: other.directory) }
        try other.prepare()
        try AtomicFile.write(try AtomicFile.read(other.certificatePath), to: authority.certificatePath, mode: 0o644)
        try AtomicFile.write(try AtomicFile.read(other.keyPath), to: authority.keyPath, mode: 0o600)
        #expect(try authority.prepare() == .renewedCertificate("no usable certificate for the CA"))
    }

    @Test(arguments: ["", "bad name", "a,b", "exa_mple.com", "-", "x..y"])
    func aNameNoCertificateCanCarryIsRefused(name: String) throws {
        let authority = LocalCertificateAuthority(directory: Self.temporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: authority.directory) }
        let error = #expect(throws: TLSError.self) { try authority.prepare(hostNames: [name]) }
        #expect(error?.description.contains("'\(name)' cannot be a name in a certificate") == true)
    }

    @Test func thePinIsTheSHA256OfTheSubjectPublicKeyInfo() throws {
        let authority = LocalCertificateAuthority(directory: Self.temporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: authority.directory) }
        try authority.prepare()
        let leaf = try certificate(authority.certificatePath)
        // The same digest, reached another way: the key's DER from i2d_PUBKEY.
        let key = try #require(X509_get0_pubkey(leaf.pointer))
        var der = [UInt8](repeating: 0, count: Int(i2d_PUBKEY(key, nil)))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_PUBKEY(key, &cursor)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        SHA256(der, der.count, &digest)
        #expect(try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: authority.certificatePath) == Data(digest).base64EncodedString())
        #expect(leaf.publicKeyPin != (try certificate(authority.caCertificatePath)).publicKeyPin)
    }

    @Test func theDefaultDirectoryIsPerUser() {
        #if os(macOS)
        #expect(LocalCertificateAuthority.defaultDirectory(environment: ["HOME": "/Users/a"])
            == "/Users/a/Library/Application Support/Understudy/tls")
        #else
        #expect(LocalCertificateAuthority.defaultDirectory(environment: ["HOME": "/home/a"]) == "/home/a/.local/share/understudy/tls")
        #expect(LocalCertificateAuthority.defaultDirectory(environment: ["HOME": "/home/a", "XDG_DATA_HOME": "/data"])
            == "/data/understudy/tls")
        #endif
    }
}
