/// A close frame's status code (RFC 6455 §7.4), the ones a server sends by name.
struct WebSocketCloseCode: RawRepresentable, Equatable, Hashable, Sendable {
    let rawValue: UInt16

    init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    static let normal = WebSocketCloseCode(rawValue: 1000)
    static let goingAway = WebSocketCloseCode(rawValue: 1001)
    static let protocolError = WebSocketCloseCode(rawValue: 1002)
    static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    static let internalError = WebSocketCloseCode(rawValue: 1011)
    static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)

    /// Whether a peer may send this code in a close frame: 1000-1003 and 1007-1014 of the protocol's, 3000-4999
    /// for libraries and applications. 1004, 1005, 1006 and 1015 are reserved never to be sent (§7.4.1).
    var maySend: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
