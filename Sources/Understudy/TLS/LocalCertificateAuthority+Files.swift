import Foundation

extension LocalCertificateAuthority {
    /// Runs `body` holding an exclusive lock on the directory (created `0700` if missing), so two servers starting
    /// at once do not each make a CA and leave one's leaf beside the other's CA.
    func withDirectoryLock<T>(_ body: () throws(TLSError) -> T) throws(TLSError) -> T {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSError("cannot create the certificate directory \(directory): \(error.localizedDescription)")
        }
        let lockPath = directory + "/.lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TLSError("cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw TLSError("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
