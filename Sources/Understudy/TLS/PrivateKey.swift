import COpenSSL

/// An OpenSSL key pair (`EVP_PKEY`), owned: freed with the value.
///
/// Not Sendable: made, used and dropped on one thread (the CA's preparation, or a test).
final class PrivateKey {
    let pointer: OpaquePointer

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// A new ECDSA P-256 key: what Apple's rules accept, and quick to make.
    static func generateP256() throws(TLSError) -> PrivateKey {
        guard let key = understudy_generate_p256_key() else { throw TLSError.openSSL("cannot generate a P-256 key") }
        return PrivateKey(pointer: key)
    }

    /// Reads a PEM private key (PKCS#8 or traditional); `source` names it in the error.
    init(pem: [UInt8], source: String) throws(TLSError) {
        guard let key = MemoryBIO.reading(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw TLSError.openSSL("\(source) holds no PEM private key")
        }
        pointer = key
    }

    /// The key as unencrypted PKCS#8 PEM.
    func pem() throws(TLSError) -> [UInt8] {
        guard let bytes = MemoryBIO.writing({ PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil) == 1 }) else {
            throw TLSError.openSSL("cannot write a private key as PEM")
        }
        return bytes
    }
}
