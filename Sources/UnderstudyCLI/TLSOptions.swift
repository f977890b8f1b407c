import Understudy

/// The HTTPS flags of the `understudy` command (`--tls`, `--tls-port`, `--tls-dir`, `--tls-cert`, `--tls-key`).
struct TLSOptions: Equatable {
    var enabled = false
    var port: Int?
    var directory: String?
    var certificate: String?
    var key: String?

    /// The default directory as the help shows it, with the home folder as `~`.
    static var defaultDirectoryText: String {
        #if os(macOS)
        "~/Library/Application Support/Understudy/tls"
        #else
        "$XDG_DATA_HOME/understudy/tls, or ~/.local/share/understudy/tls"
        #endif
    }

    /// Takes one flag (`value` nil for `--tls`).
    mutating func read(_ flag: String, value: String?) throws(CommandLineOptions.UsageError) {
        switch flag {
        case "--tls": enabled = true
        case "--tls-port":
            guard let value, let number = Int(value), (0...65_535).contains(number) else {
                throw CommandLineOptions.UsageError(message: "--tls-port must be a number from 0 to 65535, not '\(value ?? "")'")
            }
            port = number
        case "--tls-dir": directory = try nonEmpty(flag, value)
        case "--tls-cert": certificate = try nonEmpty(flag, value)
        default: key = try nonEmpty(flag, value)
        }
    }

    private func nonEmpty(_ flag: String, _ value: String?) throws(CommandLineOptions.UsageError) -> String {
        guard let value, !value.isEmpty else { throw CommandLineOptions.UsageError(message: "\(flag) needs a non-empty path") }
        return value
    }

    /// Whether the flags make sense together: HTTPS asked for once, one source of certificate, a port of its own.
    func check(port httpPort: Int) throws(CommandLineOptions.UsageError) {
        if enabled, port != nil {
            throw CommandLineOptions.UsageError(message: "--tls and --tls-port exclude each other: --tls serves HTTPS on --port, "
                                                + "--tls-port beside http")
        }
        if (certificate == nil) != (key == nil) {
            throw CommandLineOptions.UsageError(message: "--tls-cert and --tls-key go together")
        }
        if certificate != nil, directory != nil {
            throw CommandLineOptions.UsageError(message: "--tls-dir (the local CA) and --tls-cert (your own certificate) exclude each other")
        }
        if !enabled, port == nil, certificate != nil || directory != nil {
            throw CommandLineOptions.UsageError(message: "\(certificate != nil ? "--tls-cert" : "--tls-dir") needs --tls or --tls-port")
        }
        if let port, port != 0, port == httpPort {
            throw CommandLineOptions.UsageError(message: "--tls-port \(port) is --port too: give HTTPS a port of its own, or use --tls")
        }
    }

    /// The local CA these flags name (`--tls-dir`, else the per-user default).
    var authority: LocalCertificateAuthority {
        LocalCertificateAuthority(directory: directory ?? LocalCertificateAuthority.defaultDirectory())
    }

    /// The server's settings; nil when HTTPS was not asked for.
    var settings: TLSSettings? {
        guard enabled || port != nil else { return nil }
        if let certificate, let key { return TLSSettings(identity: .files(certificate: certificate, key: key), port: port) }
        return TLSSettings(identity: .localAuthority(directory: authority.directory), port: port)
    }
}
