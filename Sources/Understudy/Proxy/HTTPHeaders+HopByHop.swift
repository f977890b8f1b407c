extension HTTPHeaders {
    /// Headers that describe one hop, not the message (RFC 9110 §7.6.1), and never cross a proxy.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",
    ]

    /// The lower-cased names of this message's hop-by-hop fields: the fixed ones and those its `Connection`
    /// header lists. A proxy forwards neither, in either direction.
    func hopByHopNames() -> Set<String> {
        guard let connection = self["Connection"] else { return Self.hopByHop }
        // Not Foundation's trimmingCharacters (~3k instructions a call): a token holds no blank anyway.
        return Self.hopByHop.union(connection.split(separator: ",").map {
            $0.filter { $0 != " " && $0 != "\t" }.lowercased()
        })
    }
}
