import Foundation

/// The API an Understudy stands in front of (`--upstream`): every request outside `/__understudy` is forwarded to
/// it, with faults applied on the way back.
public struct Upstream: Sendable, Equatable {
    /// `http` or `https`.
    public let scheme: String
    /// The host name or address, without brackets.
    public let host: String
    /// The port, explicit or the scheme's default.
    public let port: Int
    /// A path every forwarded path is put under (`/v2` for `https://api.example.com/v2`); empty for none.
    public let basePath: String
    /// Seconds to wait for the upstream to connect, then for each read or write, before the client gets a 504.
    public var timeoutSeconds: Int = 30
    /// For an https upstream: a PEM file of CA certificates to trust besides the system's (`--upstream-ca`), for
    /// an API whose certificate a private CA signed.
    public var certificateAuthorityFile: String?
    /// For an https upstream: false trusts any certificate for any name (`--upstream-insecure`). Anyone between
    /// Understudy and the upstream can then read and change the traffic, so it is never the default.
    public var verifiesCertificate = true

    /// Whether the upstream is reached over TLS.
    public var isSecure: Bool { scheme == "https" }

    /// The upstream at `url` (`http://host:port/base` or `https://…`); throws a message naming what is wrong.
    public init(url: String) throws(UpstreamError) {
        guard let schemeEnd = url.range(of: "://") else {
            throw UpstreamError("--upstream needs a URL starting with http:// or https://, not '\(url)'")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw UpstreamError("--upstream supports http:// and https:// URLs, not '\(scheme)://'")
        }
        var rest = url[schemeEnd.upperBound...]
        var basePath = ""
        if let slash = rest.firstIndex(of: "/") {
            basePath = String(rest[slash...])
            rest = rest[..<slash]
        }
        guard !basePath.contains("?"), !basePath.contains("#") else {
            throw UpstreamError("--upstream takes no query or fragment: '\(url)'")
        }
        while basePath.hasSuffix("/") { basePath.removeLast() }
        guard !rest.contains("@") else {
            throw UpstreamError("--upstream takes no user or password in the URL: '\(url)'")
        }
        var host = Substring(rest)
        var port = scheme == "https" ? 443 : 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw UpstreamError("--upstream has an unclosed '[' in '\(url)'") }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let value = Int(after.dropFirst()) else {
                    throw UpstreamError("--upstream has a bad port in '\(url)'")
                }
                port = value
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let value = Int(host[host.index(after: colon)...]) else {
                throw UpstreamError("--upstream has a bad port in '\(url)'")
            }
            port = value
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw UpstreamError("--upstream needs a host: '\(url)'") }
        guard (1...65_535).contains(port) else { throw UpstreamError("--upstream's port must be 1 to 65535 in '\(url)'") }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
        self.basePath = basePath
    }

    /// The upstream as a URL, for messages: `http://127.0.0.1:9000/v2`.
    public var url: String {
        let shownHost = isIPv6 ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(shownHost)\(port == defaultPort ? "" : ":\(port)")\(basePath)"
    }

    /// What `Host` says to the upstream: the name, with the port when it is not the scheme's default.
    var hostHeader: String {
        let shownHost = isIPv6 ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return port == defaultPort ? shownHost : "\(shownHost):\(port)"
    }

    /// An IPv6 address, bracketed in URLs. A byte scan: `String.contains(_: String)` is Foundation's `range(of:)`
    /// (~4.5k instructions), and both properties above are read for every forwarded request.
    private var isIPv6: Bool { host.utf8.contains(UInt8(ascii: ":")) }
}

/// An `--upstream` URL that cannot be used, and why.
public struct UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the flag and the value.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
