import Testing
@testable import Understudy

/// Which handshake each queued TLS fault takes: the oldest first, each for its count.
@Suite struct TLSFaultQueueTests {
    @Test func faultsTakeTheNextHandshakesInTheOrderQueued() {
        let queue = TLSFaultQueue()
        #expect(queue.next() == nil)
        queue.add(.expired, times: 2)
        queue.add(.reset, times: 1)
        #expect(queue.queued == [.init(fault: .expired, remaining: 2), .init(fault: .reset, remaining: 1)])
        #expect([queue.next(), queue.next(), queue.next(), queue.next()] == [.expired, .expired, .reset, nil])
        queue.add(.wrongKey, times: 5)
        #expect(queue.removeAll() == 1)
        #expect(queue.next() == nil)
    }
}
