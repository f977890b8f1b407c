import COpenSSL
import Foundation

/// The server side's OpenSSL context: one certificate and key, TLS 1.2 and up, and a TLS bufferevent per
/// connection for evhttp, presenting a wrong certificate (or resetting) while a TLS fault is queued or when the
/// client asks for one by SNI name (`expired.localhost`, …).
///
/// `@unchecked Sendable`: the `SSL_CTX` and the fault certificates are filled in once, in `init`, and after that
/// only read by `SSL_new` and `SSL_use_certificate`, which OpenSSL allows from any thread; connections are made on
/// the loop thread. The fault queue locks.
final class ServerTLSContext: @unchecked Sendable {
    private let context: OpaquePointer
    private let faultIdentities: TLSFaultIdentities
    /// The faults the next handshakes, or those for an SNI name, go wrong with.
    let faults: TLSFaultQueue

    /// Loads the chain and key the settings name, making or renewing the local CA's leaf first when they name
    /// the local CA.
    /// - Throws: `TLSError` naming the file that cannot be read, or a key that does not match its certificate.
    convenience init(settings: TLSSettings, hostNames: [String]) throws(TLSError) {
        let now = Date().timeIntervalSince1970
        let names = try SubjectName.forLeaf(hosts: hostNames)
        switch settings.identity {
        case .localAuthority(let directory):
            let authority = LocalCertificateAuthority(directory: directory)
            try authority.prepare(hostNames: hostNames)
            let ca = (try Certificate(pem: AtomicFile.read(authority.caCertificatePath), source: authority.caCertificatePath),
                      try PrivateKey(pem: AtomicFile.read(authority.caKeyPath), source: authority.caKeyPath))
            try self.init(certificate: authority.certificatePath, key: authority.keyPath,
                          faultIdentities: TLSFaultIdentities(names: names, ca: ca, now: now), names: names)
        case .files(let certificate, let key):
            let caKey = try PrivateKey.generateP256()
            let ca = (try CertificateIssuer.issueCA(key: caKey, now: now, commonName: "Understudy fault CA"), caKey)
            try self.init(certificate: certificate, key: key, faultIdentities: TLSFaultIdentities(names: names, ca: ca, now: now),
                          names: names)
        }
    }

    private init(certificate: String, key: String, faultIdentities: TLSFaultIdentities, names: [SubjectName]) throws(TLSError) {
        // Readable first, so a missing file is named as such rather than as a PEM error.
        _ = try AtomicFile.read(certificate)
        _ = try AtomicFile.read(key)
        context = try ServerTLSContext.makeContext(certificate: certificate, key: key)
        self.faultIdentities = faultIdentities
        faults = TLSFaultQueue(certificateNames: names)
        // Unretained: the context is freed in deinit, so it never calls back into a freed self.
        let unretained = Unmanaged.passUnretained(self).toOpaque()
        SSL_CTX_set_client_hello_cb(context, { ssl, alert, argument in
            guard let ssl, let argument else { return SSL_CLIENT_HELLO_SUCCESS }
            return Unmanaged<ServerTLSContext>.fromOpaque(argument).takeUnretainedValue().clientHelloRead(on: ssl, alert: alert)
        }, unretained)
        understudy_ssl_ctx_set_server_name_callback(context, { ssl, alert, argument in
            guard let ssl, let argument else { return SSL_TLSEXT_ERR_OK }
            return Unmanaged<ServerTLSContext>.fromOpaque(argument).takeUnretainedValue().serverNameSeen(on: ssl, alert: alert)
        }, unretained)
        SSL_CTX_set_info_callback(context) { ssl, location, result in
            guard location & SSL_CB_ACCEPT_EXIT != 0, result <= 0, let ssl else { return }
            PlainHTTPRefusal.answerIfPlainHTTP(ssl)
        }
    }

    /// Takes the next queued fault once a ClientHello is read, the point where the certificate is chosen: a
    /// connection that never sends one (a port probe, plain http, a health check) leaves the queue as it was.
    /// The handshake then goes wrong with it: reset, or a wrong certificate in place of the server's.
    private func clientHelloRead(on ssl: OpaquePointer, alert: UnsafeMutablePointer<Int32>?) -> Int32 {
        // A second ClientHello (after a HelloRetryRequest) keeps what the first one was given.
        guard SSL_get_certificate(ssl) == SSL_CTX_get0_certificate(context), let fault = faults.next() else {
            return SSL_CLIENT_HELLO_SUCCESS
        }
        if fault == .reset {
            // The handshake fails with no alert to send (-1 is OpenSSL's SSL_AD_NO_ALERT, which only its private
            // ssl_local.h names; the socket is gone by then anyway).
            Posix.resetKeepingDescriptor(SSL_get_fd(ssl))
            alert?.pointee = -1
            return SSL_CLIENT_HELLO_ERROR
        }
        guard faultIdentities.present(fault, on: ssl) else {
            alert?.pointee = SSL_AD_INTERNAL_ERROR
            return SSL_CLIENT_HELLO_ERROR
        }
        return SSL_CLIENT_HELLO_SUCCESS
    }

    /// Presents the fault set for the SNI name, or the one a fixed name asks for (`expired.localhost`…), unless a
    /// queued fault already took this handshake; other names are served as usual.
    private func serverNameSeen(on ssl: OpaquePointer, alert: UnsafeMutablePointer<Int32>?) -> Int32 {
        guard let text = SSL_get_servername(ssl, Int32(TLSEXT_NAMETYPE_host_name)),
              SSL_get_certificate(ssl) == SSL_CTX_get0_certificate(context),
              let fault = faults.fault(forServerName: String(cString: text)) else { return SSL_TLSEXT_ERR_OK }
        if fault == .reset {
            Posix.resetKeepingDescriptor(SSL_get_fd(ssl))
            alert?.pointee = SSL_AD_INTERNAL_ERROR
            return SSL_TLSEXT_ERR_ALERT_FATAL
        }
        return faultIdentities.present(fault, on: ssl) ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_ALERT_FATAL
    }

    private static func makeContext(certificate: String, key: String) throws(TLSError) -> OpaquePointer {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError.openSSL("cannot make a TLS context") }
        _ = understudy_ssl_ctx_require_tls12(context)
        // An idle keep-alive connection then holds no read or write buffer (~34 KiB each otherwise).
        understudy_ssl_ctx_release_buffers(context)
        let failure: TLSError? = if SSL_CTX_use_certificate_chain_file(context, certificate) != 1 {
            TLSError.openSSL("\(certificate) is not a PEM certificate chain")
        } else if SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) != 1 {
            TLSError.openSSL("\(key) is not a PEM private key")
        } else if SSL_CTX_check_private_key(context) != 1 {
            TLSError.openSSL("the key \(key) does not belong to the certificate \(certificate)")
        } else {
            nil
        }
        if let failure {
            SSL_CTX_free(context)
            throw failure
        }
        return context
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A connection's `SSL` (a queued fault is taken when its ClientHello arrives); nil when OpenSSL cannot make
    /// one. The transport wraps it in a bufferevent.
    func makeSSL() -> OpaquePointer? {
        SSL_new(context)
    }
}
