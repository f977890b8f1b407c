extension SubjectName {
    /// Whether a certificate carrying this name is valid for a client asking for `host`: the same DNS name, or one
    /// label under a wildcard (RFC 6125). An address is never asked for by SNI.
    func covers(_ host: String) -> Bool {
        guard !isAddress else { return false }
        let host = host.lowercased()
        guard value.hasPrefix("*.") else { return value == host }
        guard let dot = host.firstIndex(of: "."), dot != host.startIndex else { return false }
        return host[host.index(after: dot)...] == value.dropFirst(2)
    }
}
