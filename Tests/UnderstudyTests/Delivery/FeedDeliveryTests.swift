import Testing
@testable import Understudy

/// The control room's feed as a delivery: pushes wake it, its turns write them, and it ends, drops and
/// unsubscribes as a reply should.
@Suite struct FeedDeliveryTests {
    private func setUp() -> (LiveFeed, Journal) {
        let journal = Journal(capacity: 1_000)
        let faults = FaultController(seed: 1, journal: journal)
        return (LiveFeed(faults: faults, journal: journal), journal)
    }

    private func record(_ journal: Journal, _ path: String) {
        journal.record(JournalEntry(id: journal.nextID(), time: 0, session: nil, method: "GET", path: path, query: "",
                                    headers: [:], bodySize: 0, rule: nil, fault: nil, status: 200, bytesWritten: 0,
                                    firstByteMilliseconds: nil, durationMilliseconds: 1))
    }

    @Test func theFirstTurnSendsTheHeadRetryAndState() {
        let (feed, _) = setUp()
        var delivery = FeedDelivery(feed: feed, request: FeedRequest(), maximumUnflushedBytes: 1_000)
        let turn = delivery.advance(DeliveryContext(now: 0))
        #expect(turn.steps.first == .head(contentLength: nil))
        guard case .body(let bytes)? = turn.steps.last else {
            Issue.record("no body in \(turn.steps)")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("retry: 2000\n\nevent: state\n"))
        #expect(turn.wake == Double(LiveFeed.flushMilliseconds))
        #expect(feed.subscriberCount == 1)
    }

    @Test func aPushWakesTheDeliveryAndItsTurnWritesIt() {
        let (feed, journal) = setUp()
        var delivery = FeedDelivery(feed: feed, request: FeedRequest(), maximumUnflushedBytes: 1_000)
        var woken = 0
        _ = delivery.advance(DeliveryContext(now: 0, waker: DeliveryWaker { woken += 1 }))
        // Subscribing pushed the retry field and the state, each a wake; the first turn wrote them.
        #expect(woken == 2)
        woken = 0
        record(journal, "/products/1")
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 100)
        #expect(woken == 1)
        let turn = delivery.advance(DeliveryContext(now: 100))
        guard case .body(let bytes)? = turn.steps.first else {
            Issue.record("no body in \(turn.steps)")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"path\":\"/products/1\""))
    }

    @Test func aCountedFeedEndsCleanlyAndUnsubscribes() {
        let (feed, journal) = setUp()
        var delivery = FeedDelivery(feed: feed, request: FeedRequest(limit: 2), maximumUnflushedBytes: 1_000)
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery, until: 10)
        record(journal, "/products/2")
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 100)
        driver.now = 100
        driver.run(&delivery, until: 100)
        #expect(driver.ending == .end)
        #expect(driver.text.contains("/products/2"))
        delivery.finished()
        #expect(feed.subscriberCount == 0)
    }

    @Test func aViewerThatStopsReadingIsDroppedAndTheFeedStopsSendingToIt() {
        let (feed, journal) = setUp()
        var delivery = FeedDelivery(feed: feed, request: FeedRequest(), maximumUnflushedBytes: 1_000)
        var driver = DeliveryDriver(startingAt: 0)
        driver.unflushedBytes = { now in now >= 100 ? 5_000 : 0 }
        driver.run(&delivery, until: 10)
        record(journal, "/products/3")
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 100)
        driver.now = 100
        driver.run(&delivery, until: 100)
        #expect(driver.ending == .close(reset: false))
        #expect(!driver.text.contains("/products/3"))
        #expect(!delivery.subscription.send([1]))
    }

    @Test func onShutdownTheFeedEndsCleanly() {
        let (feed, _) = setUp()
        let delivery = FeedDelivery(feed: feed, request: FeedRequest(), maximumUnflushedBytes: 1_000)
        #expect(delivery.shutDown() == [.end])
        #expect(delivery.prefersSmallSendBuffer)
    }
}
