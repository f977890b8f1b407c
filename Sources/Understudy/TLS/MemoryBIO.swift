import COpenSSL

/// OpenSSL's in-memory byte stream, for reading and writing PEM without temporary files.
enum MemoryBIO {
    /// Calls `body` with a read-only BIO over `bytes`.
    static func reading<T>(_ bytes: [UInt8], _ body: (OpaquePointer) -> T?) -> T? {
        bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// What `body` writes into a fresh memory BIO; nil when it reports failure.
    static func writing(_ body: (OpaquePointer) -> Bool) -> [UInt8]? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard body(bio) else { return nil }
        var bytes: UnsafeMutablePointer<CChar>?
        let count = understudy_bio_memory(bio, &bytes)
        guard count >= 0, let bytes else { return count == 0 ? [] : nil }
        return UnsafeRawBufferPointer(start: bytes, count: count).map { $0 }
    }
}
