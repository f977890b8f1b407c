import Testing
@testable import Understudy
import UnderstudyRecording
import UnderstudyWebSocket

/// A replayed socket's schedule: what the server sent before the client spoke goes on the recorded clock from the
/// open; what followed a client message waits for the client's, then keeps its recorded delay from it.
@Suite struct WebSocketScriptTests {
    private func text(_ due: [WebSocketScript.Due]) -> [String] {
        due.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    private let recorded = [
        RecordedSocketMessage(.server, text: "hello", milliseconds: 100),
        RecordedSocketMessage(.server, text: "prices?", milliseconds: 150),
        RecordedSocketMessage(.client, text: "subscribe", milliseconds: 1_000),
        RecordedSocketMessage(.server, text: "ok", milliseconds: 1_020),
        RecordedSocketMessage(.server, data: [1, 2], isBinary: true, milliseconds: 1_500),
        RecordedSocketMessage(.client, text: "bye", milliseconds: 2_000),
    ]

    @Test func theServersFirstWordsGoOnTheRecordedClockFromTheOpen() {
        var script = WebSocketScript(recorded)
        #expect(script.nextDue == nil)
        script.opened(now: 5_000)
        #expect(script.nextDue == 5_100)
        #expect(script.take(now: 5_099).isEmpty)
        let due = script.take(now: 5_200)
        #expect(text(due) == ["hello", "prices?"])
        #expect(due.map(\.at) == [5_100, 5_150])
        // The rest followed the client's message: nothing is due until it sends one, however long that takes.
        #expect(script.nextDue == nil)
        #expect(script.take(now: 60_000).isEmpty)
    }

    @Test func whatFollowedAClientMessageWaitsForItThenKeepsItsDelay() {
        var script = WebSocketScript(recorded)
        script.opened(now: 0)
        _ = script.take(now: 200)
        script.clientSent(now: 7_000)
        #expect(script.nextDue == 7_020)
        let due = script.take(now: 8_000)
        #expect(text(due) == ["ok", "\u{1}\u{2}"])
        #expect(due.map(\.at) == [7_020, 7_500])
        #expect(due.map(\.opcode) == [.text, .binary])
        // The recording ends with the client's last message: nothing more is ever due, and more messages change nothing.
        script.clientSent(now: 9_000)
        script.clientSent(now: 9_500)
        #expect(script.nextDue == nil)
        #expect(script.take(now: 100_000).isEmpty)
    }

    /// A client that speaks before the server's first words are out does not let the answer to it overtake them.
    @Test func aPartNeverOvertakesTheOneBeforeIt() {
        var script = WebSocketScript(recorded)
        script.opened(now: 0)
        script.clientSent(now: 10)
        let due = script.take(now: 10_000)
        #expect(text(due) == ["hello", "prices?", "ok", "\u{1}\u{2}"])
        #expect(due.map(\.at) == [100, 150, 150, 510])
    }

    @Test func aConversationTheClientOpensWaitsForIt() {
        var script = WebSocketScript([RecordedSocketMessage(.client, text: "hi", milliseconds: 0),
                                      RecordedSocketMessage(.server, text: "hi yourself", milliseconds: 40)])
        script.opened(now: 0)
        #expect(script.nextDue == nil)
        script.clientSent(now: 300)
        #expect(text(script.take(now: 340)) == ["hi yourself"])
    }
}
