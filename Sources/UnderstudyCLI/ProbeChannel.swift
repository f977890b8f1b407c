#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import COpenSSL
import Foundation
import Understudy

/// The connected socket a probe speaks over: plain, or TLS with the server's certificate checked against the CA
/// the probe trusts (`understudy wait https://…`).
struct ProbeChannel {
    private let descriptor: Int32
    private let ssl: OpaquePointer?
    private let timeoutMilliseconds: Int32

    static func plain(_ descriptor: Int32, timeoutMilliseconds: Int32) -> ProbeChannel {
        ProbeChannel(descriptor: descriptor, ssl: nil, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// A TLS handshake over `descriptor` (connected), for `host`; the failure names what the certificate lacked.
    static func secure(_ descriptor: Int32, host: String, tls: UpstreamTLS,
                       timeoutMilliseconds: Int32) -> Result<ProbeChannel, ProbeFailure> {
        // The handshake blocks, bounded by the socket's timeouts: one probe, one thread.
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
        var timeout = timeval()
        timeout.tv_sec = .init(timeoutMilliseconds / 1_000)
        timeout.tv_usec = .init(timeoutMilliseconds % 1_000 * 1_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let ssl: OpaquePointer
        do {
            ssl = try tls.makeSSL(host: host)
        } catch {
            return .failure(ProbeFailure(error.description))
        }
        SSL_set_fd(ssl, descriptor)
        guard SSL_connect(ssl) == 1 else {
            let verified = SSL_get_verify_result(ssl)
            let reason = verified != X509_V_OK
                ? "the TLS handshake failed: " + String(cString: X509_verify_cert_error_string(verified))
                    + " (trust the local CA with --tls-dir, or name a CA with --cacert)"
                : "the TLS handshake failed" + ProbeChannel.openSSLReason()
            SSL_free(ssl)
            return .failure(ProbeFailure(reason))
        }
        return .success(ProbeChannel(descriptor: descriptor, ssl: ssl, timeoutMilliseconds: timeoutMilliseconds))
    }

    func send(_ bytes: [UInt8]) -> Bool {
        if let ssl {
            return bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) } == Int32(bytes.count)
        }
        return bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count
    }

    /// The next bytes of the reply, or why there are none.
    func receive() -> Result<[UInt8], ProbeFailure> {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count: Int
        if let ssl {
            count = Int(buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) })
        } else {
            guard HTTPProbe.wait(descriptor, for: Int16(POLLIN), milliseconds: timeoutMilliseconds) else {
                return .failure(ProbeFailure("timed out"))
            }
            count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        }
        guard count > 0 else {
            return .failure(ProbeFailure(count == 0 || ssl != nil ? "closed without a reply" : String(cString: strerror(errno))))
        }
        return .success(Array(buffer[..<count]))
    }

    func failure() -> ProbeFailure {
        ssl == nil ? .errno() : ProbeFailure("the request could not be sent" + ProbeChannel.openSSLReason())
    }

    func close() {
        guard let ssl else { return }
        SSL_shutdown(ssl)
        SSL_free(ssl)
    }

    private static func openSSLReason() -> String {
        ": " + TLSError.openSSLReasons()
    }
}
