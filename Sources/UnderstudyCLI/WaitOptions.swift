import Foundation
import Understudy

/// `understudy wait [--timeout S] [--cacert FILE | --tls-dir DIR] [URL]`: what to wait for, how long, and for an
/// https URL, which CA to trust.
struct WaitOptions: Equatable {
    /// The server's base URL, or a URL to fetch as it is when it has a path.
    var url: URL
    var timeoutSeconds = 30.0
    /// `--cacert FILE`: the CA an https server's certificate must chain to (besides the system's).
    var caFile: String?
    /// `--tls-dir DIR`: the local CA's directory, when not the default.
    var tlsDirectory: String?
    /// `--help`: print the usage and do nothing else.
    var showHelp = false

    static let usage = """
        Usage: understudy wait [--timeout SECONDS] [--cacert FILE | --tls-dir DIR] [URL]

        Exits 0 as soon as the server at URL answers 2xx, 1 if it has not within SECONDS (default 30), 2 on a
        usage error. URL defaults to $UNDERSTUDY_URL, else http://localhost:8080; a URL without a path is asked
        for /health. For scripts, Xcode scheme pre-actions and CI steps: `understudy & understudy wait`.

        An https URL (`understudy --tls`) is checked against the local CA that `understudy tls ca` prints (the
        default directory, or --tls-dir DIR), or against the CA in --cacert FILE (your own certificate's), and the
        system's CAs.
        """

    /// Whether the URL is https.
    var isSecure: Bool { url.scheme?.lowercased() == "https" }

    /// The CA file an https probe trusts besides the system's: `--cacert`, else the local CA when it is there.
    var trustedCAFile: String? {
        if let caFile { return caFile }
        let authority = LocalCertificateAuthority(directory: tlsDirectory ?? LocalCertificateAuthority.defaultDirectory())
        return FileManager.default.fileExists(atPath: authority.caCertificatePath) ? authority.caCertificatePath : nil
    }

    /// Reads the arguments after `wait`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(CommandLineOptions.UsageError) -> WaitOptions {
        var timeout = 30.0
        var urlText: String?
        var caFile: String?
        var tlsDirectory: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                return WaitOptions(url: URL(fileURLWithPath: "/"), showHelp: true)
            case "--cacert", "--tls-dir":
                guard let value = remaining.popFirst(), !value.isEmpty else { throw .init(message: "\(argument) needs a path") }
                if argument == "--cacert" { caFile = value } else { tlsDirectory = value }
            case "--timeout":
                let text = remaining.popFirst() ?? ""
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 3_600 else {
                    throw .init(message: "--timeout must be a number of seconds from 0 to 3600, not '\(text)'")
                }
                timeout = seconds
            case _ where argument.hasPrefix("--timeout="):
                let text = String(argument.dropFirst("--timeout=".count))
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 3_600 else {
                    throw .init(message: "--timeout must be a number of seconds from 0 to 3600, not '\(text)'")
                }
                timeout = seconds
            case _ where argument.hasPrefix("-"):
                throw .init(message: "unknown option '\(argument)' for wait")
            default:
                guard urlText == nil else { throw .init(message: "wait takes one URL, not '\(urlText!)' and '\(argument)'") }
                urlText = argument
            }
        }
        if caFile != nil, tlsDirectory != nil {
            throw .init(message: "--cacert (a CA of your own) and --tls-dir (the local CA's directory) exclude each other")
        }
        let text = urlText ?? environment["UNDERSTUDY_URL"] ?? "http://localhost:8080"
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              let host = url.host, !host.isEmpty else {
            throw .init(message: "wait needs an http:// or https:// URL, not '\(text)'")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw .init(message: "--cacert \(caFile): no such readable file")
        }
        return WaitOptions(url: url, timeoutSeconds: timeout, caFile: caFile, tlsDirectory: tlsDirectory)
    }

    /// The target asked for: the URL's own path and query, or /health for a bare base URL.
    var target: String {
        let path = url.path
        guard !path.isEmpty, path != "/" else { return "/health" }
        return url.query.map { "\(path)?\($0)" } ?? path
    }
}
