extension UnderstudyServer.Configuration {
    /// The names beyond `localhost`, `127.0.0.1` and `::1` the local CA's certificate is made for: the bound address
    /// (unless it is a wildcard, which no client connects to) and every `allowedHosts` name.
    public var certificateNames: [String] {
        (["0.0.0.0", "::", "[::]"].contains(host) ? [] : [host]) + allowedHosts
    }
}
