import CLibevent
import CLibeventOpenSSL
import COpenSSL

/// The server's TLS connections as libevent sees them: a `bufferevent_openssl` per connection evhttp accepts.
extension ServerTLSContext {
    /// A bufferevent that accepts a TLS handshake on the socket evhttp gives it next, with the next queued fault's
    /// certificate if there is one; freeing it frees the `SSL`.
    func makeBufferEvent(base: OpaquePointer) -> OpaquePointer? {
        guard let ssl = makeSSL() else { return nil }
        guard let bufferEvent = bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                               Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            SSL_free(ssl)
            return nil
        }
        // A client that closes without close_notify (most do, after their last reply) is an end of file, not an error.
        bufferevent_openssl_set_allow_dirty_shutdown(bufferEvent, 1)
        ServerTLSContext.coalesceRecords(in: bufferevent_get_output(bufferEvent))
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
