import COpenSSL
import Foundation

/// A certificate authority of your own, on this machine: made on first use, with a leaf certificate it signs for
/// `localhost`, `127.0.0.1`, `::1` and any further names, both kept in one per-user directory and reused.
///
/// The leaf is renewed 30 days before it ends, or when the names it must carry change; the CA (ten years) only when
/// it is missing, unreadable or ends within 30 days, since a new CA must be trusted again. Keys are written `0600`,
/// every file atomically (a temporary file, then a rename), and two processes preparing at once take turns.
///
/// ```swift
/// let authority = LocalCertificateAuthority(directory: LocalCertificateAuthority.defaultDirectory())
/// try authority.prepare(hostNames: ["my-mac.local"])
/// print(authority.caCertificatePath)   // trust this one
/// ```
public struct LocalCertificateAuthority: Sendable, Equatable {
    /// The directory the CA and the leaf live in.
    public let directory: String

    /// What `prepare` did.
    public enum Preparation: Sendable, Equatable {
        /// Everything on disk was current.
        case reused
        /// A new leaf was signed by the existing CA (the reason in words).
        case renewedCertificate(String)
        /// A new CA and leaf were made: the CA must be trusted (again) by clients (the reason in words).
        case createdAuthority(String)
        /// The CA on disk could not be used (a file that does not load, or a key that is not the certificate's)
        /// and a new one took its place: clients that trusted the old one must trust this one (the reason in words).
        case replacedAuthority(String)
    }

    /// An authority kept in `directory` (created, `0700`, when first needed).
    public init(directory: String) {
        self.directory = directory
    }

    /// The per-user default: `~/Library/Application Support/Understudy/tls` on macOS, else
    /// `$XDG_DATA_HOME/understudy/tls` (`~/.local/share/understudy/tls` when it is unset).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        #if os(macOS)
        return home + "/Library/Application Support/Understudy/tls"
        #else
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/understudy/tls" }
        return home + "/.local/share/understudy/tls"
        #endif
    }

    /// The CA's certificate (PEM): what a client or a simulator is told to trust.
    public var caCertificatePath: String { directory + "/understudy-ca.pem" }
    /// The CA's private key (PEM, `0600`).
    public var caKeyPath: String { directory + "/understudy-ca-key.pem" }
    /// The server's certificate (PEM), signed by the CA.
    public var certificatePath: String { directory + "/localhost.pem" }
    /// The server's private key (PEM, `0600`).
    public var keyPath: String { directory + "/localhost-key.pem" }

    /// Makes sure a CA and a leaf for the loopback names plus `hostNames` are on disk and current, making or
    /// renewing what is not. With `hostNames` nil, a current leaf is kept whatever names it carries (so printing a
    /// pin never changes it), and a new one carries the old one's names.
    /// - Throws: `TLSError` naming the directory or file that cannot be written, or a host name no certificate
    ///   can carry.
    @discardableResult
    public func prepare(hostNames: [String]? = [], now: Date = Date()) throws(TLSError) -> Preparation {
        let seconds = now.timeIntervalSince1970
        return try withDirectoryLock { () throws(TLSError) -> Preparation in
            let found = inspect()
            let names = try SubjectName.forLeaf(hosts: hostNames ?? found.found.leafNames.sorted())
            let wanted = hostNames == nil ? found.found.leafNames : Set(names.map(\.value))
            switch CertificateRenewal.decide(found.found, wanted: wanted, now: seconds) {
            case .reuse:
                return .reused
            case .issueLeaf(let reason):
                guard let ca = found.ca else { throw TLSError("the local CA in \(directory) vanished while in use") }
                try writeLeaf(names: names, ca: ca.certificate, caKey: ca.key, now: seconds)
                return .renewedCertificate(reason)
            case .issueAll(let reason):
                let unusable = found.ca == nil && (FileManager.default.fileExists(atPath: caCertificatePath)
                    || FileManager.default.fileExists(atPath: caKeyPath))
                let caKey = try PrivateKey.generateP256()
                let ca = try CertificateIssuer.issueCA(key: caKey, now: seconds)
                // The leaf first: a CA written alone would leave the old leaf, signed by another key, beside it.
                try writeLeaf(names: names, ca: ca, caKey: caKey, now: seconds)
                try AtomicFile.write(try caKey.pem(), to: caKeyPath, mode: 0o600)
                try AtomicFile.write(try ca.pem(), to: caCertificatePath, mode: 0o644)
                return unusable
                    ? .replacedAuthority("\(caCertificatePath) and \(caKeyPath) were not a certificate and its key")
                    : .createdAuthority(reason)
            }
        }
    }

    /// The SPKI SHA-256 pin (base64) of the first certificate in the PEM file at `path`.
    /// - Throws: `TLSError` when the file cannot be read or holds no certificate.
    public static func publicKeyPin(ofCertificateAt path: String) throws(TLSError) -> String {
        try Certificate(pem: AtomicFile.read(path), source: path).publicKeyPin
    }

    private func writeLeaf(names: [SubjectName], ca: Certificate, caKey: PrivateKey, now: Double) throws(TLSError) {
        let key = try PrivateKey.generateP256()
        let leaf = try CertificateIssuer.issueLeaf(key: key, names: names, ca: ca, caKey: caKey, now: now)
        try AtomicFile.write(try key.pem(), to: keyPath, mode: 0o600)
        try AtomicFile.write(try leaf.pem(), to: certificatePath, mode: 0o644)
    }

    /// What is on disk, checked: each certificate against its key, and the leaf against the CA.
    private func inspect() -> (found: CertificateRenewal.Found, ca: (certificate: Certificate, key: PrivateKey)?) {
        func load(_ certificatePath: String, _ keyPath: String) -> (certificate: Certificate, key: PrivateKey)? {
            guard let certificate = try? Certificate(pem: AtomicFile.read(certificatePath), source: certificatePath),
                  let key = try? PrivateKey(pem: AtomicFile.read(keyPath), source: keyPath),
                  X509_check_private_key(certificate.pointer, key.pointer) == 1 else {
                ERR_clear_error()
                return nil
            }
            return (certificate, key)
        }
        var found = CertificateRenewal.Found()
        guard let ca = load(caCertificatePath, caKeyPath) else { return (found, nil) }
        found.caNotAfter = ca.certificate.notAfter
        if let leaf = load(certificatePath, keyPath), leaf.certificate.isSigned(by: ca.key.pointer) {
            found.leafNotAfter = leaf.certificate.notAfter
            found.leafNames = Set(leaf.certificate.subjectAltNames)
        }
        return (found, ca)
    }
}
