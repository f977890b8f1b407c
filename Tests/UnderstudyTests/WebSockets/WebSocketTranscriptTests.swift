import UnderstudyFaultSpec
import UnderstudyWebSocket
import Testing
@testable import Understudy

/// What a socket's journal entry records of it: each message both ways with its size and time, the closes with
/// their codes, and the fault that acted on a message.
@Suite struct WebSocketTranscriptTests {
    let source = StreamSource(catalog: .standard, maximumUnflushedBytes: 64 << 10)

    /// An echo socket, opened and driven up to its first wait (a close it sends waits for the client's answer).
    private func echo(_ fault: String? = nil) throws -> (WebSocketSession, DeliveryDriver) {
        var plan = WebSocketPlan(endpoint: .echo, maximumMessageBytes: 1 << 16)
        plan.faults = WebSocketFaults(try fault.map { try FaultSpec(parsing: $0) })
        var session = WebSocketSession(plan: plan, source: source, hub: WebSocketHub(clock: { 0 }))
        var driver = DeliveryDriver()
        driver.run(&session, until: driver.now)
        return (session, driver)
    }

    private func client(_ frame: WebSocketFrame) -> [UInt8] { WebSocketReaderTests.client(frame) }

    private func summary(_ session: WebSocketSession) -> [String] {
        session.transcript.records.map { record in
            "\(record.direction.rawValue) \(record.kind.rawValue) \(record.bytes)"
                + (record.closeCode.map { " \($0)" } ?? "") + (record.fault.map { " \($0)" } ?? "")
        }
    }

    @Test func anEchoRecordsBothWaysAndTheClosingHandshake() throws {
        var (session, driver) = try echo()
        driver.now += 20
        driver.receive(client(WebSocketFrame(.text, Array("hello".utf8))), &session)
        driver.now += 30
        driver.receive(client(WebSocketFrame(.binary, [1, 2, 3])) + client(WebSocketFrame(.ping, [9])), &session)
        driver.receive(client(.close(.normal, reason: "bye")), &session)
        #expect(summary(session) == ["received text 5", "sent text 5", "received binary 3", "sent binary 3",
                                     "received close 3 1000", "sent close 3 1000"])
        #expect(session.transcript.records.map(\.milliseconds) == [20, 20, 50, 50, 50, 50])
        #expect(session.socketTranscript == session.transcript)
    }

    @Test func theFaultThatActedOnAMessageIsNamed() throws {
        var (session, driver) = try echo("skip=1; duplicate=2; corrupt=rsv; malformed-event=3")
        for text in ["a", "bb", "ccc"] {
            driver.receive(client(WebSocketFrame(.text, Array(text.utf8))), &session)
        }
        #expect(summary(session) == ["received text 1", "sent text 1 skip", "received text 2", "sent text 2",
                                     "sent text 2 duplicate", "received text 3", "sent text 3 corrupt=rsv"])
    }

    @Test func aCutMessageAndTheServersOwnCloseAreRecorded() throws {
        var (cut, cutDriver) = try echo("cut-mid-event=1")
        cutDriver.receive(client(WebSocketFrame(.text, Array("half of this".utf8))), &cut)
        #expect(summary(cut) == ["received text 12", "sent text 12 cut-mid-event"])

        var (closing, driver) = try echo("close=4001; message=go away")
        #expect(summary(closing) == ["sent close 7 4001"])
        driver.receive(client(.close(WebSocketCloseCode(rawValue: 4001))), &closing)
        #expect(summary(closing) == ["sent close 7 4001", "received close 0 4001"])
    }

    /// A stalled socket decides a close it never writes: the transcript says so.
    @Test func aStalledSocketsUnwrittenCloseIsMarked() throws {
        var (session, driver) = try echo("stall-after=0")
        driver.receive(client(WebSocketFrame(.text, [0x61])) + client(.close(.normal)), &session)
        #expect(summary(session) == ["received text 1", "received close 0 1000", "sent close 0 1000 stall-after"])
    }
}
