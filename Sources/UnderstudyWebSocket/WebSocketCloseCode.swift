/// A close frame's status code (RFC 6455 §7.4), the ones a server sends by name.
package struct WebSocketCloseCode: RawRepresentable, Equatable, Hashable, Sendable {
    package let rawValue: UInt16

    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    package static let normal = WebSocketCloseCode(rawValue: 1000)
    package static let goingAway = WebSocketCloseCode(rawValue: 1001)
    package static let protocolError = WebSocketCloseCode(rawValue: 1002)
    package static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    package static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    package static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    package static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    package static let internalError = WebSocketCloseCode(rawValue: 1011)
    package static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    package static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)

    /// Whether a peer may send this code in a close frame: 1000-1003 and 1007-1014 of the protocol's, 3000-4999
    /// for libraries and applications. 1004, 1005, 1006 and 1015 are reserved never to be sent (§7.4.1).
    package var maySend: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
