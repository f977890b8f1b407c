/// How a server serves HTTPS: which certificate, and on which port.
///
/// ```swift
/// var configuration = UnderstudyServer.Configuration()
/// configuration.tls = TLSSettings(identity: .localAuthority(directory: LocalCertificateAuthority.defaultDirectory()))
/// let server = try UnderstudyServer.start(configuration)   // https://localhost:PORT
/// ```
public struct TLSSettings: Sendable, Equatable {
    /// Where the server's certificate comes from.
    public enum Identity: Sendable, Equatable {
        /// The leaf of the local CA kept in `directory` (`LocalCertificateAuthority`), made or renewed at start for
        /// `localhost`, `127.0.0.1`, `::1` and the configuration's `allowedHosts`.
        case localAuthority(directory: String)
        /// Your own certificate chain and private key, PEM files.
        case files(certificate: String, key: String)
    }

    /// Where the certificate comes from.
    public var identity: Identity
    /// nil: HTTPS on the configuration's `port`, with no plain http. A port (0 picks a free one): HTTPS there, while
    /// plain http stays on `port`.
    public var port: Int?

    /// HTTPS with `identity`, on the configuration's port or on `port` beside plain http.
    public init(identity: Identity, port: Int? = nil) {
        self.identity = identity
        self.port = port
    }
}
