import CLibevent
import CLibeventOpenSSL
import COpenSSL

/// The client side of TLS for a proxied https upstream: one OpenSSL context that verifies the upstream's
/// certificate against the system's CAs plus an optional CA file of your own (`--upstream-ca`), or, when told so
/// explicitly, not at all; and per connection an `SSL` that sends SNI and checks the host name.
///
/// `@unchecked Sendable`: the `SSL_CTX` is filled in once, in `init`, and after that only read by `SSL_new`,
/// which OpenSSL allows from any thread.
final class UpstreamTLS: @unchecked Sendable {
    /// How the upstream's certificate is checked.
    enum Verification: Sendable, Equatable {
        /// Against the system's CAs (`SSL_CTX_set_default_verify_paths`) and, when given, the PEM CAs in a file.
        case verified(extraCAFile: String?)
        /// Not at all: any certificate, any name. Only ever by an explicit, loud flag.
        case off
    }

    private let context: OpaquePointer
    let verification: Verification

    /// - Throws: `TLSError` naming an extra CA file that cannot be read or holds no certificate.
    init(verification: Verification) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError.openSSL("cannot make a TLS client context") }
        self.context = context
        self.verification = verification
        _ = understudy_ssl_ctx_require_tls12(context)
        understudy_ssl_ctx_release_buffers(context)
        switch verification {
        case .verified(let extraCAFile):
            // Without system CAs (none installed) verification still fails closed, naming the missing issuer.
            _ = SSL_CTX_set_default_verify_paths(context)
            ERR_clear_error()
            if let extraCAFile {
                _ = try AtomicFile.read(extraCAFile)
                guard SSL_CTX_load_verify_locations(context, extraCAFile, nil) == 1 else {
                    throw TLSError.openSSL("\(extraCAFile) holds no PEM CA certificate")
                }
            }
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        case .off:
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// An `SSL` for a connection to `host` (a name, or an IP address with or without brackets): SNI for a name, and
    /// unless verification is off, the certificate must be for that name or address.
    func makeSSL(host: String) throws(TLSError) -> OpaquePointer {
        guard let ssl = SSL_new(context) else { throw TLSError.openSSL("cannot make a TLS connection") }
        let address = IPAddressText(host)
        // SNI carries names only (RFC 6066); an address is checked against the certificate's IP SANs instead.
        guard address != nil || understudy_ssl_set_server_name(ssl, host) == 1 else {
            SSL_free(ssl)
            throw TLSError.openSSL("cannot send the server name '\(host)'")
        }
        if verification != .off {
            let checked = if let address {
                X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), address.value) == 1
            } else {
                SSL_set1_host(ssl, host) == 1
            }
            guard checked else {
                SSL_free(ssl)
                throw TLSError.openSSL("cannot check certificates for '\(host)'")
            }
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
        }
        return ssl
    }

    /// A bufferevent that starts the TLS handshake to `host` once connected, ready for
    /// `evhttp_connection_base_bufferevent_new(base, dns, bufferEvent, host, port)`; freeing it frees its `SSL`.
    func makeBufferEvent(base: OpaquePointer, host: String) throws(TLSError) -> OpaquePointer {
        let ssl = try makeSSL(host: host)
        let options = Int32(BEV_OPT_CLOSE_ON_FREE.rawValue | BEV_OPT_DEFER_CALLBACKS.rawValue)
        guard let bufferEvent = bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_CONNECTING, options) else {
            SSL_free(ssl)
            throw TLSError("libevent could not make a TLS connection to \(host)")
        }
        // Many servers close without close_notify after their last reply: an end of file, not an error.
        bufferevent_openssl_set_allow_dirty_shutdown(bufferEvent, 1)
        return bufferEvent
    }

    /// Why the TLS connection on `bufferEvent` failed, in words for a 502's message: the certificate check's
    /// verdict (`certificate verify failed: hostname mismatch`), else OpenSSL's or the socket's error; nil when
    /// nothing went wrong at the TLS layer.
    static func failureReason(of bufferEvent: OpaquePointer) -> String? {
        if let ssl = bufferevent_openssl_get_ssl(bufferEvent) {
            let verdict = SSL_get_verify_result(ssl)
            if verdict != X509_V_OK {
                return "certificate verify failed: \(String(cString: X509_verify_cert_error_string(verdict)))"
            }
        }
        var reasons: [String] = []
        while case let code = bufferevent_get_openssl_error(bufferEvent), code != 0 {
            // The reason alone ("wrong version number"), not the error code and library around it.
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "OpenSSL error \(code)"
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        return reasons.isEmpty ? nil : "TLS handshake failed: " + reasons.joined(separator: "; ")
    }
}
