import UnderstudyWebSocket
import Testing
@testable import Understudy
import UnderstudyFaultSpec

/// The socket's faults message by message: each directive read from its spec, then what the sender hands the
/// session for the messages an endpoint gives it.
@Suite struct WebSocketSenderTests {
    private func sender(_ spec: String, seed: UInt64 = 1) throws -> WebSocketSender {
        WebSocketSender(faults: WebSocketFaults(try FaultSpec(parsing: spec)), seed: seed)
    }

    private func message(_ text: String) -> [UInt8] { WebSocketFrame(.text, Array(text.utf8)).encoded() }

    /// Sends messages "1"…"n" at `now` and takes what is due.
    private func send(_ count: Int, through sender: inout WebSocketSender, now: Double = 0) -> [WebSocketSender.Output] {
        (1...count).flatMap { number -> [WebSocketSender.Output] in
            sender.enqueue(.text, Array("\(number)".utf8), now: now)
            return sender.take(now: now)
        }
    }

    @Test func withoutFaultsEveryMessageGoesOutAsOneFrame() throws {
        var plain = try sender("delay=1s")
        #expect(plain.open(now: 0).isEmpty)
        #expect(send(3, through: &plain) == [.bytes(message("1")), .bytes(message("2")), .bytes(message("3"))])
        #expect(plain.state == .sending && plain.nextDue == nil)
    }

    @Test func dropAfterClosesWithTheCodeAndReasonGiven() throws {
        var closing = try sender("close=1011; message=db down; drop-after=2")
        #expect(closing.open(now: 0).isEmpty)
        #expect(send(3, through: &closing)
                == [.bytes(message("1")), .bytes(message("2")), .close(.internalError, "db down")])
        #expect(closing.state == .done)
        var plain = try sender("drop-after=1")
        #expect(send(2, through: &plain) == [.bytes(message("1")), .close(.normal, "")])
    }

    @Test func closeWithNoTriggerClosesAtOnceAndCloseAfterWaits() throws {
        var atOnce = try sender("close=4001")
        #expect(atOnce.open(now: 0) == [.close(WebSocketCloseCode(rawValue: 4001), "")])
        var later = try sender("close-after=2s; close=1012")
        #expect(later.open(now: 100).isEmpty)
        #expect(later.nextDue == 2_100)
        #expect(later.take(now: 2_099).isEmpty)
        #expect(later.take(now: 2_100) == [.close(.serviceRestart, "")])
    }

    @Test func resetAfterAndCutMidEventResetWithoutAClose() throws {
        var reset = try sender("reset-after=1")
        #expect(send(2, through: &reset) == [.bytes(message("1")), .reset])
        var cut = try sender("cut-mid-event=2")
        let long = String(repeating: "x", count: 40)
        cut.enqueue(.text, Array("1".utf8), now: 0)
        cut.enqueue(.text, Array(long.utf8), now: 0)
        let outputs = cut.take(now: 0)
        #expect(outputs == [.bytes(message("1")), .bytes(Array(message(long).prefix(21))), .reset])
        #expect(cut.state == .done)
    }

    @Test func stallAfterSendsNothingMore() throws {
        var stalled = try sender("stall-after=1")
        #expect(send(3, through: &stalled) == [.bytes(message("1"))])
        #expect(stalled.state == .stalled)
        var fromTheStart = try sender("stall-after=0")
        #expect(fromTheStart.open(now: 0).isEmpty)
        #expect(fromTheStart.state == .stalled)
    }

    @Test func skipDuplicateAndChunkShapeTheirMessage() throws {
        var shaped = try sender("skip=2; duplicate=3")
        #expect(send(3, through: &shaped) == [.bytes(message("1")), .bytes(message("3")), .bytes(message("3"))])
        var split = try sender("chunk=2")
        split.enqueue(.binary, [1, 2, 3, 4, 5], now: 0)
        let frames = WebSocketFrame(fin: false, .binary, [1, 2]).encoded()
            + WebSocketFrame(fin: false, .continuation, [3, 4]).encoded()
            + WebSocketFrame(fin: true, .continuation, [5]).encoded()
        #expect(split.take(now: 0) == [.bytes(frames)])
    }

    /// Each corruption is one a client must fail the connection for: a client's own reader says which code.
    @Test(arguments: [("corrupt=utf8", WebSocketCloseCode.invalidPayload), ("corrupt=rsv", .protocolError),
                      ("corrupt=mask", .protocolError), ("malformed-event=1", .invalidPayload)])
    func corruptionsFailAClientsReader(spec: String, code: WebSocketCloseCode) throws {
        var corrupt = try sender(spec)
        corrupt.enqueue(.binary, Array("fine".utf8), now: 0)
        guard case .bytes(let bytes) = corrupt.take(now: 0).first else {
            Issue.record("no bytes")
            return
        }
        var client = WebSocketReader(maximumMessageBytes: 1 << 16, readsClientFrames: false)
        _ = client.receive(bytes)
        #expect(client.failure?.code == code)
    }

    @Test func corruptNamesTheMessageMalformedEventGives() throws {
        var second = try sender("corrupt=rsv; malformed-event=2")
        let outputs = send(2, through: &second)
        guard case .bytes(let first) = outputs[0], case .bytes(let broken) = outputs[1] else {
            Issue.record("\(outputs)")
            return
        }
        #expect(first == message("1"))
        #expect(broken[0] & 0x40 != 0)
    }

    /// Lag holds each message a seeded time, in order; the same seed draws the same times.
    @Test func lagHoldsMessagesInOrderOnASeededSchedule() throws {
        func schedule(seed: UInt64) throws -> [Double] {
            var lagging = try sender("lag=100ms..1s", seed: seed)
            for number in 1...5 { lagging.enqueue(.text, Array("\(number)".utf8), now: 0) }
            var dues: [Double] = []
            var sent: [WebSocketSender.Output] = []
            while let due = lagging.nextDue {
                dues.append(due)
                sent += lagging.take(now: due)
            }
            #expect(sent == (1...5).map { .bytes(message("\($0)")) })
            return dues
        }
        let first = try schedule(seed: 7)
        #expect(try schedule(seed: 7) == first)
        #expect(first.allSatisfy { (100...5_000).contains($0) } && first == first.sorted())
    }

    @Test func anEndpointsFinishClosesAfterItsMessages() throws {
        var lagging = try sender("lag=50ms")
        lagging.enqueue(.text, Array("1".utf8), now: 0)
        lagging.finish(.normal, reason: "the feed is complete", now: 0)
        #expect(lagging.take(now: 0).isEmpty)
        #expect(lagging.take(now: 50) == [.bytes(message("1")), .close(.normal, "the feed is complete")])
    }
}
