import UnderstudyWebSocket
import Testing
@testable import Understudy

/// An echo connection's decisions: echoes, pongs, and the closing handshake from either side.
@Suite struct WebSocketConversationTests {
    private func client(_ frame: WebSocketFrame) -> [UInt8] { WebSocketReaderTests.client(frame) }

    @Test func messagesAreEchoedAndPingsAnswered() {
        var conversation = WebSocketConversation(maximumMessageBytes: 1 << 16)
        let actions = conversation.receive(client(WebSocketFrame(.text, Array("hi".utf8))) + client(WebSocketFrame(.ping, [7])))
        #expect(actions == [.received(.text, Array("hi".utf8)), .send(WebSocketFrame(.pong, [7]).encoded())])
    }

    /// A client's close is answered with its code (1000 when it gave none), then the connection closes.
    @Test(arguments: [(WebSocketFrame.close(.goingAway, reason: "bye"), WebSocketFrame.close(.goingAway, reason: "bye")),
                      (WebSocketFrame(.close), WebSocketFrame.close(.normal))])
    func aClientsCloseIsAnsweredThenTheConnectionCloses(close: WebSocketFrame, answered: WebSocketFrame) {
        var conversation = WebSocketConversation(maximumMessageBytes: 1 << 16)
        #expect(conversation.receive(client(close)) == [.send(answered.encoded()), .closeWhenFlushed])
        #expect(conversation.state == .closed)
        #expect(conversation.receive(client(WebSocketFrame(.text, [0x61]))).isEmpty)
    }

    /// The server's close waits for the client's answer; no echo goes out meanwhile; a timeout ends it without.
    @Test func aServersCloseWaitsForTheAnswerOrTimesOut() {
        var conversation = WebSocketConversation(maximumMessageBytes: 1 << 16)
        #expect(conversation.close(.serviceRestart, reason: "restarting") == [.send(WebSocketFrame.close(.serviceRestart, reason: "restarting").encoded())])
        #expect(conversation.receive(client(WebSocketFrame(.text, [0x61]))).isEmpty)
        #expect(conversation.receive(client(.close(.serviceRestart))) == [.closeWhenFlushed])

        var silent = WebSocketConversation(maximumMessageBytes: 1 << 16)
        _ = silent.close(.normal)
        #expect(silent.closingTimedOut() == [.closeWhenFlushed])
        #expect(silent.closingTimedOut().isEmpty)
    }

    /// A protocol error closes with its code and reason; an unmasked frame is one.
    @Test func aProtocolErrorClosesWithItsCode() {
        var conversation = WebSocketConversation(maximumMessageBytes: 1 << 16)
        let actions = conversation.receive(WebSocketFrame(.text, Array("hi".utf8)).encoded())
        #expect(actions == [.send(WebSocketFrame.close(.protocolError, reason: "a client's frame must be masked").encoded()),
                            .closeWhenFlushed])
        #expect(conversation.state == .closed)
    }
}
