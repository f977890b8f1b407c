import COpenSSL

/// The client side of TLS for a proxied https upstream: one OpenSSL context that verifies the upstream's
/// certificate against the system's CAs plus an optional CA file of your own (`--upstream-ca`), or, when told so
/// explicitly, not at all; and per connection an `SSL` that sends SNI and checks the host name.
///
/// `@unchecked Sendable`: the `SSL_CTX` is filled in once, in `init`, and after that only read by `SSL_new`,
/// which OpenSSL allows from any thread.
package final class UpstreamTLS: @unchecked Sendable {
    /// How the upstream's certificate is checked.
    package enum Verification: Sendable, Equatable {
        /// Against the system's CAs (`SSL_CTX_set_default_verify_paths`) and, when given, the PEM CAs in a file.
        case verified(extraCAFile: String?)
        /// Not at all: any certificate, any name. Only ever by an explicit, loud flag.
        case off
    }

    private let context: OpaquePointer
    let verification: Verification

    /// - Throws: `TLSError` naming an extra CA file that cannot be read or holds no certificate.
    package init(verification: Verification) throws(TLSError) {
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
    package func makeSSL(host: String) throws(TLSError) -> OpaquePointer {
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
}
