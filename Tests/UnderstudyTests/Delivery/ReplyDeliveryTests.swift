import Testing
@testable import Understudy

/// The body and connection faults, as values: what each one sends, and how it ends.
@Suite struct ReplyDeliveryTests {
    let body = Array((0..<100).map { UInt8($0) })

    @Test func brokenConnectionsEndAtOnce() {
        let empty = BrokenConnection(.empty)
        #expect(empty.advance(DeliveryContext(now: 0)) == DeliveryTurn([.close(reset: false)]))
        let resetBefore = BrokenConnection(.reset(afterHeaders: false, contentLength: 10))
        #expect(resetBefore.advance(DeliveryContext(now: 0)) == DeliveryTurn([.close(reset: true)]))
        let resetAfter = BrokenConnection(.reset(afterHeaders: true, contentLength: 10))
        #expect(resetAfter.advance(DeliveryContext(now: 0))
            == DeliveryTurn([.head(contentLength: 10), .closeWhenFlushed(reset: true)]))
        let garbage = BrokenConnection(.garbage([1, 2, 3]))
        #expect(garbage.advance(DeliveryContext(now: 0)) == DeliveryTurn([.raw([1, 2, 3]), .closeWhenFlushed(reset: false)]))
    }

    @Test func onlyAHangNeedsEndingOnShutdown() {
        #expect(BrokenConnection(.hang).advance(DeliveryContext(now: 0)) == DeliveryTurn([.hang]))
        #expect(BrokenConnection(.hang).shutDown() == [.close(reset: false)])
        #expect(BrokenConnection(.empty).shutDown().isEmpty)
        #expect(PacedBody(body: body, pacing: .bytesPerSecond(10)).shutDown().isEmpty)
    }

    @Test func aTruncatedBodyAnnouncesAllAndSendsThePrefix() {
        var delivery = TruncatedBody(body: body, cut: .bytes(30))
        var driver = DeliveryDriver()
        driver.run(&delivery)
        #expect(driver.head == .some(100))
        #expect(driver.body == Array(body.prefix(30)))
        #expect(driver.ending == .closeWhenFlushed(reset: false))
    }

    @Test func aTruncatedChunkedBodySendsThreeQuartersWithNoLastChunk() {
        var delivery = TruncatedBody(body: body, cut: .chunked)
        var driver = DeliveryDriver()
        driver.run(&delivery)
        #expect(driver.head == .some(nil))
        #expect(driver.writes.map(\.bytes.count) == [25, 25, 25])
        #expect(driver.body == Array(body.prefix(75)))
        #expect(driver.ending == .closeWhenFlushed(reset: false))
    }

    @Test func aPacedBodyKeepsItsRate() {
        // 1,000 bytes a second for 2.5 s: 50 slots of 50 ms, 50 bytes each.
        let long = [UInt8](repeating: 7, count: 2_500)
        var delivery = PacedBody(body: long, pacing: .bytesPerSecond(1_000))
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(driver.head == .some(2_500))
        #expect(driver.body == long)
        #expect(driver.writes.map(\.at) == (1...50).map { Double($0 * 50) })
        #expect(driver.writes.allSatisfy { $0.bytes.count == 50 })
        #expect(driver.ending == .end)
    }

    @Test func aLongSlowBodyIsSentInFewerLongerSlots() {
        // 309 KB at 16 kB/s: 19 s, so slots of 386 ms (6,176 bytes), not hundreds of tiny writes a second.
        let pacer = RatePacer(bytesPerSecond: 16_000, length: 309_548)
        #expect(pacer.slotMilliseconds == 386)
        #expect(pacer.bytesPerSlot == 6_176)
        #expect(RatePacer(bytesPerSecond: 1_000, length: 1_000_000).slotMilliseconds == 500)
        // A short fast one: 256 KiB at 1 MB/s is 262 ms, so slots of 10 ms.
        #expect(RatePacer(bytesPerSecond: 1_000_000, length: 262_144).slotMilliseconds == 10)
        #expect(RatePacer(bytesPerSecond: 16_000).slotMilliseconds == 50)
    }

    @Test func aLateTurnDoesNotPushTheScheduleBack() {
        var delivery = PacedBody(body: body, pacing: .chunks(count: 4, overMilliseconds: 400))
        var context = DeliveryContext(now: 0)
        #expect(delivery.advance(context) == DeliveryTurn([.head(contentLength: 100)], wake: 100))
        // The loop was busy: the first slice's turn comes 30 ms late; the second is still due at 200 ms.
        context.now = 130
        #expect(delivery.advance(context) == DeliveryTurn([.body(Array(body[0..<25]))], wake: 70))
    }

    @Test func chunksSpreadTheBodyOverTheirTime() {
        var delivery = PacedBody(body: body, pacing: .chunks(count: 3, overMilliseconds: 300))
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(driver.writes.map(\.bytes.count) == [34, 34, 32])
        #expect(driver.writes.map(\.at) == [100, 200, 300])
        #expect(driver.body == body)
    }
}
