import Foundation

/// Whole-file reads and atomic writes: a reader sees the old file or the new one, never half of one.
enum AtomicFile {
    /// The file's bytes.
    static func read(_ path: String) throws(TLSError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TLSError("cannot read \(path): \(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")")
        }
        return [UInt8](data)
    }

    /// Writes `bytes` to a temporary file beside `path` with `mode` from its creation (a key is never readable by
    /// others, even for a moment), flushes it to disk, then renames it over `path`.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(TLSError) {
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw TLSError("cannot write \(path): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw TLSError("cannot write \(path): \(reason)")
            }
            written += count
        }
        // The mode again: open's is masked by the umask, and a certificate must stay readable by its user's tools.
        let synced = fchmod(descriptor, mode) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TLSError("cannot write \(path): \(reason)")
        }
    }
}
