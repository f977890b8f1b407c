import CLibevent
import CLibeventOpenSSL
import COpenSSL

/// The server side's OpenSSL context: one certificate and key, TLS 1.2 and up, and a TLS bufferevent per
/// connection for evhttp.
///
/// `@unchecked Sendable`: the `SSL_CTX` is filled in once, in `init`, and after that only read by `SSL_new`,
/// which OpenSSL allows from any thread; connections are made on the loop thread.
final class ServerTLSContext: @unchecked Sendable {
    private let context: OpaquePointer

    /// Loads the chain and key the settings name, making or renewing the local CA's leaf first when they name
    /// the local CA.
    /// - Throws: `TLSError` naming the file that cannot be read, or a key that does not match its certificate.
    convenience init(settings: TLSSettings, hostNames: [String]) throws(TLSError) {
        switch settings.identity {
        case .localAuthority(let directory):
            let authority = LocalCertificateAuthority(directory: directory)
            try authority.prepare(hostNames: hostNames)
            try self.init(certificate: authority.certificatePath, key: authority.keyPath)
        case .files(let certificate, let key):
            try self.init(certificate: certificate, key: key)
        }
    }

    init(certificate: String, key: String) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError.openSSL("cannot make a TLS context") }
        self.context = context
        _ = understudy_ssl_ctx_require_tls12(context)
        // An idle keep-alive connection then holds no read or write buffer (~34 KiB each otherwise).
        understudy_ssl_ctx_release_buffers(context)
        // Readable first, so a missing file is named as such rather than as a PEM error.
        _ = try AtomicFile.read(certificate)
        _ = try AtomicFile.read(key)
        guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
            throw TLSError.openSSL("\(certificate) is not a PEM certificate chain")
        }
        guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError.openSSL("\(key) is not a PEM private key")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError.openSSL("the key \(key) does not belong to the certificate \(certificate)")
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A bufferevent that accepts a TLS handshake on the socket evhttp gives it next; freeing it frees the `SSL`.
    func makeBufferEvent(base: OpaquePointer) -> OpaquePointer? {
        guard let ssl = SSL_new(context) else { return nil }
        guard let bufferEvent = bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                               Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            SSL_free(ssl)
            return nil
        }
        // A client that closes without close_notify (most do, after their last reply) is an end of file, not an error.
        bufferevent_openssl_set_allow_dirty_shutdown(bufferEvent, 1)
        return bufferEvent
    }

    /// Whether the connection's TLS handshake is still under way (false for a plain connection).
    static func isHandshaking(_ bufferEvent: OpaquePointer) -> Bool {
        guard let ssl = bufferevent_openssl_get_ssl(bufferEvent) else { return false }
        return SSL_is_init_finished(ssl) == 0
    }

    /// Whether the connection speaks TLS.
    static func isSecure(_ bufferEvent: OpaquePointer) -> Bool {
        bufferevent_openssl_get_ssl(bufferEvent) != nil
    }
}
