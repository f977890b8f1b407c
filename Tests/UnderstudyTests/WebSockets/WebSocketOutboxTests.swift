import UnderstudyFaultSpec
import UnderstudyWebSocket
import Testing
@testable import Understudy

/// A network profile's rate on a socket's bytes: frames leave no faster than the rate, in order, and the end of
/// the connection waits for them.
@Suite struct WebSocketOutboxTests {
    @Test func bytesLeaveAtTheRateAndTheEndWaitsForThem() {
        var outbox = WebSocketOutbox(bytesPerSecond: 1_000)
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0) }
        var now = 0.0
        var (steps, wake) = outbox.pass([.head(contentLength: nil), .raw(bytes), .closeWhenFlushed(reset: false)], now: now)
        #expect(steps.first == .head(contentLength: nil))
        var written: [UInt8] = []
        var ended: Double?
        for _ in 0..<1_000 {
            for step in steps {
                switch step {
                case .raw(let piece): written += piece
                case .closeWhenFlushed: ended = now
                default: break
                }
            }
            guard ended == nil, let next = wake else { break }
            now += next
            (steps, wake) = outbox.pass([], now: now)
        }
        #expect(written == bytes)
        let end = try? #require(ended)
        #expect((900...1_100).contains(end ?? 0), "1,000 bytes at 1,000 B/s ended after \(end ?? 0) ms")
    }

    /// Bytes handed over while earlier ones still wait go after them, however the front has been let go of.
    @Test func laterBytesQueueBehindWaitingOnes() {
        var outbox = WebSocketOutbox(bytesPerSecond: 1_000)
        let first = [UInt8](repeating: 1, count: 700), second = [UInt8](repeating: 2, count: 500)
        var written: [UInt8] = []
        func take(_ steps: [DeliveryStep]) { for case .raw(let piece) in steps { written += piece } }
        var (steps, wake) = outbox.pass([.raw(first)], now: 0)
        take(steps)
        var now = 0.0
        for round in 0..<2_000 {
            guard let next = wake else { break }
            now += next
            (steps, wake) = outbox.pass(round == 3 ? [.raw(second)] : [], now: now)
            take(steps)
        }
        #expect(written == first + second)
    }

    @Test func withNothingWaitingStepsGoAtOnce() {
        var outbox = WebSocketOutbox(bytesPerSecond: 1_000)
        let (steps, wake) = outbox.pass([.head(contentLength: nil)], now: 5)
        #expect(steps == [.head(contentLength: nil)] && wake == nil)
    }

    /// `profile=edge` (240 kbit/s, 30,000 bytes a second): a 30,000-byte echo takes about a second to go back.
    @Test func aProfilePacesAnEcho() throws {
        var plan = WebSocketPlan(endpoint: .echo, maximumMessageBytes: 1 << 16)
        plan.faults = WebSocketFaults(try FaultSpec(parsing: "profile=edge"))
        #expect(plan.faults.bytesPerSecond == 30_000)
        let source = StreamSource(catalog: .standard, maximumUnflushedBytes: 64 << 10)
        var session = WebSocketSession(plan: plan, source: source, hub: WebSocketHub(clock: { 0 }))
        var driver = DeliveryDriver()
        driver.run(&session, until: driver.now)
        let payload = [UInt8](repeating: 7, count: 30_000)
        let start = driver.now
        driver.receive(WebSocketReaderTests.client(WebSocketFrame(.binary, payload)), &session)
        driver.run(&session, until: start + 500)
        #expect((12_000...18_000).contains(driver.raw.count), "\(driver.raw.count) bytes after 500 ms")
        driver.run(&session, until: start + 1_200)
        #expect(driver.raw == WebSocketFrame(.binary, payload).encoded())
    }
}

extension WebSocketOutboxTests {
    /// On shutdown, a paced socket's 1001 goes behind the frames still waiting, never inside one.
    @Test func aShutdownCloseWaitsBehindThePacedFrames() throws {
        var plan = WebSocketPlan(endpoint: .echo, maximumMessageBytes: 1 << 16)
        plan.faults = WebSocketFaults(try FaultSpec(parsing: "profile=edge"))
        let source = StreamSource(catalog: .standard, maximumUnflushedBytes: 64 << 10)
        var session = WebSocketSession(plan: plan, source: source, hub: WebSocketHub(clock: { 0 }))
        var driver = DeliveryDriver(startingAt: EventLoop.monotonicMilliseconds())
        driver.run(&session, until: driver.now)
        let payload = [UInt8](repeating: 7, count: 20_000)
        driver.receive(WebSocketReaderTests.client(WebSocketFrame(.binary, payload)), &session)
        driver.perform(session.shutDown())
        driver.run(&session, until: driver.now + 2_000)
        let closeFrame = WebSocketFrame.close(.goingAway, reason: "the server is shutting down").encoded()
        #expect(driver.raw == WebSocketFrame(.binary, payload).encoded() + closeFrame)
    }
}
