import CLibevent
import CLibeventOpenSSL
import COpenSSL

/// An https upstream's connections as libevent sees them: a `bufferevent_openssl` that starts the handshake.
extension UpstreamTLS {
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
