/// A host and optional port as a `Host` header or an `Origin` writes them: `localhost:8080`, `[::1]`, `127.0.0.1`.
///
/// The name is lower-cased, loses its brackets (`[::1]` is `::1`) and one trailing dot (`localhost.` is
/// `localhost`), so that two spellings of one host compare equal.
struct HostAuthority: Equatable, Sendable {
    let name: String
    let port: Int?

    init(name: String, port: Int?) {
        self.name = HostAuthority.normalized(name)
        self.port = port
    }

    /// Parses `host`, `host:port`, `[v6]` or `[v6]:port`; nil for anything else (an unbracketed IPv6 address, a
    /// port that is not a number from 0 to 65535, an empty name, a path or user part).
    init?(_ text: some StringProtocol) {
        let text = String(text)
        var name: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else {
            let colons = text.count(where: { $0 == ":" })
            guard colons <= 1 else { return nil }
            if let colon = text.firstIndex(of: ":") {
                name = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                name = text[...]
            }
        }
        guard !name.isEmpty, !name.contains(where: { "/@?# \t".contains($0) }) else { return nil }
        var port: Int?
        // An empty port (`localhost:`) is allowed by RFC 3986 and means the default.
        if let portText, !portText.isEmpty {
            guard portText.count <= 5, portText.allSatisfy(\.isASCII), let value = Int(portText), (0...65_535).contains(value)
            else { return nil }
            port = value
        }
        self.init(name: String(name), port: port)
    }

    /// An `Origin`'s scheme and authority (`http://localhost:3000`); nil for `null` or anything that is not
    /// `scheme://authority` with nothing after it.
    static func origin(_ text: String) -> (scheme: String, authority: HostAuthority)? {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard !scheme.isEmpty, let authority = HostAuthority(text[separator.upperBound...]) else { return nil }
        return (scheme, authority)
    }

    /// Whether the name is a loopback one: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    var isLoopback: Bool {
        if name == "localhost" || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }

    static func normalized(_ name: String) -> String {
        var name = Substring(name.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name.count > 1, name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }
}
