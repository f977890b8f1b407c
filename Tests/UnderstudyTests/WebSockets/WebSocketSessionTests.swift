import UnderstudyWebSocket
import Testing
@testable import Understudy

/// The socket as a delivery, driven as the writer drives it: the 101, what each read calls for, the closing
/// handshake from either side, and the wait for a client that never answers the server's close.
@Suite struct WebSocketSessionTests {
    let source = StreamSource(catalog: .standard, maximumUnflushedBytes: 64 << 10)

    private func opened() -> (WebSocketSession, DeliveryDriver) {
        var session = WebSocketSession(plan: WebSocketPlan(endpoint: .echo, maximumMessageBytes: 1 << 16),
                                       source: source, hub: WebSocketHub(clock: { 0 }))
        var driver = DeliveryDriver()
        driver.run(&session)
        return (session, driver)
    }

    private func client(_ frame: WebSocketFrame) -> [UInt8] { WebSocketReaderTests.client(frame) }

    @Test func theHeadGoesFirstAndOwnsTheConnection() {
        let (session, driver) = opened()
        #expect(driver.head == .some(nil))
        #expect(driver.raw.isEmpty && driver.ending == nil)
        #expect(session.readsClient)
    }

    @Test func eachReadIsAnsweredInItsTurn() {
        var (session, driver) = opened()
        let message = client(WebSocketFrame(.text, Array("hi".utf8)))
        // Split across reads: nothing until the frame is whole.
        driver.receive(Array(message.prefix(3)), &session)
        #expect(driver.raw.isEmpty)
        driver.receive(Array(message.dropFirst(3)) + client(WebSocketFrame(.ping, [1])), &session)
        #expect(driver.raw == WebSocketFrame(.text, Array("hi".utf8)).encoded() + WebSocketFrame(.pong, [1]).encoded())
        #expect(driver.ending == nil)
    }

    @Test func aClientsCloseIsAnsweredAndEndsTheDelivery() {
        var (session, driver) = opened()
        driver.receive(client(.close(.normal, reason: "done")), &session)
        #expect(driver.raw == WebSocketFrame.close(.normal, reason: "done").encoded())
        #expect(driver.ending == .closeWhenFlushed(reset: false))
    }

    /// On shutdown the server says 1001; the client's answer ends it, or the wait does.
    @Test(arguments: [true, false]) func shutdownClosesWithGoingAway(clientAnswers: Bool) {
        var (session, driver) = opened()
        driver.perform(session.shutDown())
        #expect(driver.raw == WebSocketFrame.close(.goingAway, reason: "the server is shutting down").encoded())
        let wake = driver.receive([], &session)
        #expect(wake == WebSocketSession.closingTimeoutMilliseconds)
        if clientAnswers {
            driver.receive(client(.close(.goingAway)), &session)
        } else {
            driver.now += WebSocketSession.closingTimeoutMilliseconds
            driver.receive([], &session)
        }
        #expect(driver.ending == .closeWhenFlushed(reset: false))
        #expect(session.shutDown().isEmpty)
    }

    private func feed(interval: Int, count: Int?, fault: String? = nil) throws -> WebSocketSession {
        var plan = WebSocketPlan(endpoint: .feed)
        plan.feed = WebSocketPlan.Feed(intervalMilliseconds: interval, count: count)
        plan.faults = WebSocketFaults(try fault.map { try FaultSpec(parsing: $0) })
        return WebSocketSession(plan: plan, source: source, hub: WebSocketHub(clock: { 0 }))
    }

    /// The feed sends its updates on schedule, then closes with 1000 and waits for the client's answer.
    @Test func theFeedSendsOnScheduleThenCloses() throws {
        var session = try feed(interval: 100, count: 2)
        var driver = DeliveryDriver()
        driver.run(&session, until: driver.now + 250)
        var client = WebSocketReader(maximumMessageBytes: 1 << 16, readsClientFrames: false)
        let events = client.receive(driver.raw)
        #expect(events.count == 3)
        #expect(events.last == .close(WebSocketCloseCode.normal, "the feed is complete"))
        if case .message(.text, let payload) = events.first {
            #expect(String(decoding: payload, as: UTF8.self).contains("\"price\""))
        } else {
            Issue.record("\(events)")
        }
    }

    /// A stalled feed is not woken by its schedule: it waits for the client, sending nothing.
    @Test func aStalledFeedWaitsWithoutSpinning() throws {
        var session = try feed(interval: 100, count: nil, fault: "stall-after=1")
        var driver = DeliveryDriver()
        driver.run(&session, until: driver.now + 10_000, maximumTurns: 50)
        #expect(driver.turns < 10)
        var client = WebSocketReader(maximumMessageBytes: 1 << 16, readsClientFrames: false)
        #expect(client.receive(driver.raw).count == 1)
        // A ping goes unanswered.
        let written = driver.raw.count
        #expect(driver.receive(WebSocketReaderTests.client(WebSocketFrame(.ping, [1])), &session) == nil)
        #expect(driver.raw.count == written)
    }
}
