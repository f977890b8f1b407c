import Foundation
import Testing
@testable import Understudy

/// `/products/stream` as a delivery: the SSE framing, the schedule, and each stream fault, read from a buffer.
@Suite struct EventStreamDeliveryTests {
    let source = StreamSource(catalog: .standard, maximumUnflushedBytes: 64 << 10)

    private func stream(count: Int? = 3, interval: Int = 100, heartbeat: Int? = nil, resumeAfter: Int = 0,
                        _ configure: (inout FaultSpec.StreamFaults) -> Void = { _ in }) -> EventStream {
        var faults = FaultSpec.StreamFaults()
        configure(&faults)
        let plan = StreamPlan(intervalMilliseconds: interval, lastEventID: count, retryMilliseconds: 1_500,
                              heartbeatMilliseconds: heartbeat, resumeAfter: resumeAfter, faults: faults, seed: 7)
        return EventStream(plan: plan, source: source)
    }

    /// The `data:` lines' ids, in order.
    private func ids(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func aStreamSendsRetryThenEventsOnScheduleThenEnds() {
        var delivery = stream()
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(driver.head == .some(nil))
        #expect(driver.text.hasPrefix("retry: 1500\n\nid: 1\nevent: product-update\ndata: {\"id\":"))
        #expect(ids(driver.text) == ["1", "2", "3"])
        #expect(driver.writes.map(\.at) == [0, 100, 200, 300])
        #expect(driver.ending == .end)
    }

    /// Under a network profile every byte goes through the pacer: ten events due at once (interval 1 ms) arrive
    /// at the rate, not together, and the framing is the unpaced stream's.
    @Test func aProfiledStreamArrivesAtItsRate() {
        var plain = stream(count: 10, interval: 1)
        var paced = stream(count: 10, interval: 1) { $0.bytesPerSecond = 2_000 }
        var one = DeliveryDriver(startingAt: 0)
        var two = DeliveryDriver(startingAt: 0)
        one.run(&plain)
        two.run(&paced)
        #expect(two.body == one.body)
        #expect(two.ending == .end)
        let seconds = (two.writes.last?.at ?? 0) / 1_000
        let achieved = Double(two.body.count) / seconds
        #expect(abs(achieved - 2_000) / 2_000 < 0.05, "\(achieved) B/s over \(two.body.count) bytes: \(two.writes.map { ($0.at, $0.bytes.count) })")
        // 100 bytes every 50 ms (a stream's slots), never more than a burst at once.
        #expect(two.writes.allSatisfy { $0.bytes.count <= 100 * RatePacer.burstSlots })
    }

    @Test func theSameSeedAndIdGiveTheSameBytesOnAnyConnection() {
        var first = stream()
        var resumed = stream(resumeAfter: 1)
        var one = DeliveryDriver(startingAt: 0)
        var two = DeliveryDriver(startingAt: 50)
        one.run(&first)
        two.run(&resumed)
        #expect(ids(two.text) == ["2", "3"])
        #expect(one.writes[2].bytes == two.writes[1].bytes)
    }

    @Test func dropAfterAndResetAfterCloseOnceTheEventIsOut() {
        var dropping = stream(count: nil) { $0.dropAfter = 2 }
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&dropping)
        #expect(ids(driver.text) == ["1", "2"])
        #expect(driver.ending == .closeWhenFlushed(reset: false))

        var resetting = stream(count: nil) { $0.resetAfter = 1 }
        var other = DeliveryDriver(startingAt: 0)
        other.run(&resetting)
        #expect(ids(other.text) == ["1"])
        #expect(other.ending == .closeWhenFlushed(reset: true))
    }

    @Test func aStallSendsNothingMoreAndAsksForNoTurn() {
        var delivery = stream(count: nil) { $0.stallAfter = 1 }
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(ids(driver.text) == ["1"])
        #expect(driver.ending == nil)
        #expect(delivery.advance(DeliveryContext(now: 10_000)) == DeliveryTurn())

        var atOnce = stream(count: nil) { $0.stallAfter = 0 }
        let first = atOnce.advance(DeliveryContext(now: 0))
        #expect(first.wake == nil)
        #expect(first.steps == [.head(contentLength: nil), .body(Array("retry: 1500\n\n".utf8))])
    }

    @Test func chunksDripTheSameBytes() {
        var plain = stream(count: 2)
        var dripped = stream(count: 2) { $0.chunkSize = 5 }
        var one = DeliveryDriver(startingAt: 0)
        var two = DeliveryDriver(startingAt: 0)
        one.run(&plain)
        two.run(&dripped)
        #expect(two.body == one.body)
        #expect(two.writes.allSatisfy { $0.bytes.count <= 5 })
        #expect(two.ending == .end)
    }

    @Test func crlfEndsEveryLine() {
        var delivery = stream(count: 1) { $0.newline = "crlf" }
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(driver.text.hasPrefix("retry: 1500\r\n\r\nid: 1\r\nevent: product-update\r\n"))
        #expect(!driver.text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func cutMidEventClosesHalfwayThroughIt() {
        var delivery = stream(count: nil) { $0.cutMidEvent = 2 }
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(ids(driver.text) == ["1", "2"])
        #expect(!driver.text.hasSuffix("\n\n"))
        #expect(driver.ending == .closeWhenFlushed(reset: false))
    }

    @Test func aMalformedEventBreaksItsData() {
        var delivery = stream(count: 2) { $0.malformedEvent = 2 }
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        let data = driver.text.split(separator: "\n").filter { $0.hasPrefix("data: ") }
        #expect(data.count == 2)
        #expect(data[0].hasSuffix("}"))
        #expect(data[1].hasSuffix("\u{FFFD}"))
    }

    @Test func heartbeatsFillTheGapsBetweenEvents() {
        var delivery = stream(count: 1, interval: 1_000, heartbeat: 300)
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(driver.writes.map(\.at) == [0, 300, 600, 900, 1_000])
        #expect(driver.text.components(separatedBy: ": heartbeat\n\n").count == 4)
    }

    @Test func aReaderThatFallsBehindIsDropped() {
        var delivery = stream(count: nil)
        var driver = DeliveryDriver(startingAt: 0)
        driver.unflushedBytes = { now in now >= 300 ? 65 << 10 : 0 }
        driver.run(&delivery)
        #expect(ids(driver.text) == ["1", "2"])
        #expect(driver.ending == .close(reset: false))
    }

    @Test func onShutdownAStreamEndsCleanly() {
        #expect(stream().shutDown() == [.end])
        #expect(stream().prefersSmallSendBuffer)
    }
}
