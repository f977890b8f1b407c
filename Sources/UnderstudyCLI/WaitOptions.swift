import Foundation

/// `understudy wait [--timeout S] [URL]`: what to wait for, and for how long.
struct WaitOptions: Equatable {
    /// The server's base URL, or a URL to fetch as it is when it has a path.
    var url: URL
    var timeoutSeconds = 30.0

    static let usage = """
        Usage: understudy wait [--timeout SECONDS] [URL]

        Exits 0 as soon as the server at URL answers 2xx, 1 if it has not within SECONDS (default 30), 2 on a
        usage error. URL defaults to $UNDERSTUDY_URL, else http://localhost:8080; a URL without a path is asked
        for /health. For scripts, Xcode scheme pre-actions and CI steps: `understudy & understudy wait`.
        """

    /// Reads the arguments after `wait`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(CommandLineOptions.UsageError) -> WaitOptions {
        var timeout = 30.0
        var urlText: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
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
        let text = urlText ?? environment["UNDERSTUDY_URL"] ?? "http://localhost:8080"
        guard let url = URL(string: text), url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            throw .init(message: "wait needs an http:// URL, not '\(text)'")
        }
        return WaitOptions(url: url, timeoutSeconds: timeout)
    }

    /// The target asked for: the URL's own path and query, or /health for a bare base URL.
    var target: String {
        let path = url.path
        guard !path.isEmpty, path != "/" else { return "/health" }
        return url.query.map { "\(path)?\($0)" } ?? path
    }
}
