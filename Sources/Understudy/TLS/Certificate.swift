import COpenSSL
import Foundation

/// An X.509 certificate (`X509`), owned: freed with the value. What the CA checks before reusing one, and what
/// `understudy tls pin` prints.
///
/// Not Sendable: made, used and dropped on one thread.
final class Certificate {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// Reads the first PEM certificate in `pem`; `source` names it in the error.
    convenience init(pem: [UInt8], source: String) throws(TLSError) {
        guard let certificate = MemoryBIO.reading(pem, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw TLSError.openSSL("\(source) holds no PEM certificate")
        }
        self.init(taking: certificate)
    }

    /// The certificate as PEM.
    func pem() throws(TLSError) -> [UInt8] {
        guard let bytes = MemoryBIO.writing({ PEM_write_bio_X509($0, pointer) == 1 }) else {
            throw TLSError.openSSL("cannot write a certificate as PEM")
        }
        return bytes
    }

    /// Seconds since 1970 from which it is valid.
    var notBefore: Double { Certificate.seconds(X509_get0_notBefore(pointer)) }
    /// Seconds since 1970 until which it is valid.
    var notAfter: Double { Certificate.seconds(X509_get0_notAfter(pointer)) }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Double {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return 0 }
        return Double(timegm(&parts))
    }

    /// Whether `key`'s public half verifies this certificate's signature (it was issued by that key's owner).
    func isSigned(by key: OpaquePointer) -> Bool {
        defer { ERR_clear_error() }
        return X509_verify(pointer, key) == 1
    }

    /// The subject alternative names: host names as written, IP addresses in their usual text form (`::1`).
    var subjectAltNames: [String] {
        guard let names = X509_get_ext_d2i(pointer, NID_subject_alt_name, nil, nil) else { return [] }
        let stack = OpaquePointer(names)
        defer { GENERAL_NAMES_free(stack) }
        var found: [String] = []
        for index in 0..<OPENSSL_sk_num(stack) {
            guard let entry = OPENSSL_sk_value(stack, index)?.assumingMemoryBound(to: GENERAL_NAME.self) else { continue }
            switch entry.pointee.type {
            case GEN_DNS:
                if let text = Certificate.bytes(of: entry.pointee.d.dNSName) { found.append(String(decoding: text, as: UTF8.self)) }
            case GEN_IPADD:
                if let address = Certificate.bytes(of: entry.pointee.d.iPAddress), let text = IPAddressText(bytes: address) {
                    found.append(text.value)
                }
            default:
                continue
            }
        }
        return found
    }

    private static func bytes(of string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8]? {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    /// The SHA-256 of the DER SubjectPublicKeyInfo, in base64: the pin HPKP, TrustKit and Alamofire take.
    var publicKeyPin: String {
        guard let publicKey = X509_get_X509_PUBKEY(pointer) else { return "" }
        let length = i2d_X509_PUBKEY(publicKey, nil)
        guard length > 0 else { return "" }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509_PUBKEY(publicKey, &cursor)
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var digestLength: UInt32 = 0
        guard EVP_Digest(der, der.count, &digest, &digestLength, EVP_sha256(), nil) == 1 else { return "" }
        return Data(digest.prefix(Int(digestLength))).base64EncodedString()
    }
}
