/// One message of a recorded WebSocket conversation: who sent it, whether it was text or binary, its bytes, and when
/// it was sent, in milliseconds from the moment the socket opened.
///
/// A recorded exchange whose reply is a 101 keeps its conversation as these, in the order they were sent; a replay
/// sends the server's messages back in that order, each after the client message it followed.
public struct RecordedSocketMessage: Sendable, Equatable {
    /// Which end of the socket sent a message.
    public enum Sender: String, Sendable, Equatable {
        /// The app (the client that opened the socket).
        case client
        /// The server the socket was opened to.
        case server
    }

    /// Who sent it.
    public var sender: Sender
    /// Whether it was a binary message (a text message's bytes are UTF-8).
    public var isBinary: Bool
    /// The message's payload.
    public var data: [UInt8]
    /// When it was sent, in milliseconds since the socket opened.
    public var milliseconds: Double

    /// A message.
    public init(_ sender: Sender, data: [UInt8], isBinary: Bool = false, milliseconds: Double) {
        self.sender = sender
        self.isBinary = isBinary
        self.data = data
        self.milliseconds = milliseconds
    }

    /// A text message.
    public init(_ sender: Sender, text: String, milliseconds: Double) {
        self.init(sender, data: Array(text.utf8), milliseconds: milliseconds)
    }
}
