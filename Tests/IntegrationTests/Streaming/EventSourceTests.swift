import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// Server-sent events over a real socket: order, resumption with Last-Event-ID, `retry:`, 204 and idle timeouts.
@Suite(.timeLimit(.minutes(1))) struct EventSourceTests {
    private let path = "/products/stream"

    @Test func eventsArriveInOrder() async throws {
        try await withHarness { h in
            let events = try await collect(h.client.events(productStream(["interval": 50, "count": 5])), count: 5)
            #expect(ids(events) == [1, 2, 3, 4, 5])
            #expect(events.allSatisfy { $0.event.event == "product-update" })
            for received in events {
                let payload = try JSONDecoder().decode(ProductUpdateEvent.self, from: Data(received.event.data.utf8))
                #expect((1...194).contains(payload.id))
            }

            let journal = await h.settledRequests(to: path, count: 1)
            #expect(journal.count == 1)
            let first = try #require(journal.first)
            #expect(first.status == 200)
            #expect(first.headers["Accept"] == "text/event-stream")
            #expect(first.headers["Cache-Control"] == "no-cache")
            #expect(first.headers["Last-Event-ID"] == nil)
            #expect(first.authorization == nil)
        }
    }

    @Test func droppedStreamResumesAfterTheLastEventWithNoGapOrRepeat() async throws {
        try await withHarness { h in
            let request = productStream(["interval": 50, "count": 6, "retry": 100])
            let reference = try await collect(h.client.events(request), count: 6)
            _ = await h.settledRequests(to: path, count: 1)

            try h.fault("drop-after=3", on: path, times: 1)
            let events = try await collect(h.client.events(request), count: 6)
            #expect(ids(events) == [1, 2, 3, 4, 5, 6])
            #expect(events.map(\.event.data) == reference.map(\.event.data), "the same payloads as an unbroken stream")

            let journal = await h.settledRequests(to: path, count: 3)
            #expect(journal.count == 3, "the reference stream, the dropped one and one reconnection")
            guard journal.count == 3 else { return }
            #expect(journal[1].fault == "drop-after=3")
            #expect(journal[1].headers["Last-Event-ID"] == nil)
            #expect(journal[2].fault == nil)
            #expect(journal[2].headers["Last-Event-ID"] == "3")
            #expect(journal[2].headers["Accept"] == "text/event-stream")
        }
    }

    @Test func reconnectionWaitsAtLeastTheServersRetry() async throws {
        try await withHarness { h in
            try h.fault("drop-after=2", on: path, times: 1)
            let request = productStream(["interval": 50, "count": 4, "retry": 1000])
            let events = try await collect(h.client.events(request), count: 4)
            #expect(ids(events) == [1, 2, 3, 4])
            // The wait is checked where the requests arrived: a busy test runner can consume events late.

            let journal = await h.settledRequests(to: path, count: 2)
            #expect(journal.count == 2)
            if journal.count == 2 {
                let dropped = journal[0].time + journal[0].durationMilliseconds / 1000
                #expect(journal[1].time - dropped >= 0.9, "retry: 1000 is the least the client waits")
                #expect(journal[1].headers["Last-Event-ID"] == "2")
            }
        }
    }

    @Test func noContentStopsReconnectingForGood() async throws {
        try await withHarness { h in
            try h.fault("status=204", on: path, after: 1)
            var received: [ServerSentEvent] = []
            for try await event in h.client.events(productStream(["interval": 50, "count": 3, "retry": 100])) {
                received.append(event)
            }
            #expect(received.map(\.id) == ["1", "2", "3"])

            let journal = await h.settledRequests(to: path, count: 2)
            #expect(journal.map(\.status) == [200, 204], "one reconnection, answered 204, and nothing after it")
            #expect(journal.last?.headers["Last-Event-ID"] == "3")
        }
    }

    @Test func stalledStreamTripsTheIdleTimeout() async throws {
        try await withHarness { h in
            try h.fault("stall-after=1", on: path)
            var options = EventSource.Options()
            options.idleTimeout = .seconds(1)
            options.maximumFailures = 0
            var received: [ServerSentEvent] = []
            let start = ContinuousClock.now
            let error = await #expect(throws: APIError.self) {
                for try await event in h.client.events(productStream(["interval": 50, "count": 5]), options: options) {
                    received.append(event)
                }
            }
            #expect(received.map(\.id) == ["1"])
            #expect(error?.kind == .timedOut)
            #expect(ContinuousClock.now - start >= .seconds(1))

            let journal = await h.settledRequests(to: path, count: 1)
            #expect(journal.count == 1, "maximumFailures 0: no reconnection")
            #expect(journal.first?.fault == "stall-after=1")
        }
    }

    @Test func stalledStreamReconnectsAfterTheIdleTimeout() async throws {
        try await withHarness { h in
            try h.fault("stall-after=1", on: path, times: 1)
            var options = EventSource.Options()
            options.idleTimeout = .seconds(1)
            let request = productStream(["interval": 50, "count": 3, "retry": 100])
            let events = try await collect(h.client.events(request, options: options), count: 3)
            #expect(ids(events) == [1, 2, 3])
            let journal = await h.settledRequests(to: path, count: 2)
            #expect(journal.count == 2)
            if journal.count == 2 {
                // Measured where the requests arrived, not where a busy test runner consumed the events.
                #expect(journal[1].time - journal[0].time >= 1.0, "a second of silence before giving up on it")
            }
            #expect(journal.last?.headers["Last-Event-ID"] == "1")
        }
    }
}
