#if canImport(Security)
import CryptoKit
import Foundation
import Security

/// What the Security framework says about a server's certificate chain: why it refused it, and whether a key in
/// it is pinned. Apple platforms only (Linux's FoundationNetworking shows no client the server's trust).
enum ServerTrust {
    /// The precise kind for a trust the system refused, or nil when it now passes. `SecTrustEvaluateWithError`
    /// (macOS 10.14, iOS 12) blocks while it fetches what it needs: never call it on the main thread.
    static func refusal(of trust: SecTrust) -> APIError.Kind? {
        var error: CFError?
        guard !SecTrustEvaluateWithError(trust, &error) else { return nil }
        switch error.map({ Int(CFErrorGetCode($0)) }) ?? 0 {
        case Int(errSecCertificateExpired), Int(errSecCertificateNotValidYet): return .certificateExpired
        case Int(errSecHostNameMismatch): return .wrongHost
        default: return .untrustedCertificate
        }
    }

    /// Whether a key of the chain's certificates (leaf to root, `SecTrustCopyCertificateChain`: macOS 12, iOS 15)
    /// has one of `pins`' digests.
    static func matches(_ trust: SecTrust, _ pins: PinnedKeys) -> Bool {
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        return chain.contains { certificate in
            guard let info = subjectPublicKeyInfo(of: certificate) else { return false }
            return pins.digests.contains(Data(SHA256.hash(data: info)).base64EncodedString())
        }
    }

    /// The certificate's SubjectPublicKeyInfo, rebuilt from the raw key `SecKeyCopyExternalRepresentation` exports
    /// (`SecCertificateCopyKey`: macOS 10.14, iOS 12).
    private static func subjectPublicKeyInfo(of certificate: SecCertificate) -> Data? {
        guard let key = SecCertificateCopyKey(certificate),
              let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?,
              let attributes = SecKeyCopyAttributes(key) as? [String: Any],
              let type = attributes[kSecAttrKeyType as String] as? String else { return nil }
        let bits = attributes[kSecAttrKeySizeInBits as String] as? Int ?? 0
        let isEC = type == (kSecAttrKeyTypeECSECPrimeRandom as String)
        let algorithm: SubjectPublicKeyInfo.Algorithm? = if type == (kSecAttrKeyTypeRSA as String) {
            .rsa
        } else if isEC && bits == 256 {
            .p256
        } else if isEC && bits == 384 {
            .p384
        } else {
            nil
        }
        return algorithm.map { SubjectPublicKeyInfo.der($0, key: raw) }
    }
}
#endif
