/// Why a server could not start.
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// Another process (or server) already listens on the port.
        case addressInUse
        /// The host is not an address this machine can bind.
        case invalidHost
        /// A configured rule or setting is invalid.
        case invalidConfiguration
        /// libevent or the socket layer refused for another reason.
        case listenerFailed
    }

    /// What went wrong.
    public let kind: Kind
    /// What went wrong, in words, naming the address or setting.
    public let description: String
}
