import Foundation

/// Rebuilds a key's DER SubjectPublicKeyInfo (what a pin digests) from the raw key Apple's `SecKey` exports: the
/// X9.63 point for an EC key, the PKCS #1 `RSAPublicKey` for RSA. Pure, so Linux tests check it against OpenSSL.
enum SubjectPublicKeyInfo {
    /// The algorithms a pinned key may use: what `understudy` issues (P-256) and what servers commonly present.
    enum Algorithm: Sendable {
        case p256, p384, rsa

        /// The DER `AlgorithmIdentifier`.
        var identifier: [UInt8] {
            switch self {
            case .p256: // id-ecPublicKey, prime256v1
                [0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
            case .p384: // id-ecPublicKey, secp384r1
                [0x30, 0x10, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]
            case .rsa: // rsaEncryption, NULL parameters
                [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00]
            }
        }
    }

    /// `SEQUENCE { algorithm, BIT STRING { 0 unused bits, key } }`.
    static func der(_ algorithm: Algorithm, key: Data) -> Data {
        let bitString = [0x03] + length(key.count + 1) + [0x00] + [UInt8](key)
        let body = algorithm.identifier + bitString
        return Data([0x30] + length(body.count) + body)
    }

    /// A DER length: one byte below 128, else the count of big-endian bytes that follow, then those.
    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
