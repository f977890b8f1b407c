import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// Cancelling the calling task ends the request at once as `.cancelled`, and nothing more reaches the server.
@Suite(.timeLimit(.minutes(1))) struct CancellationTests {
    @Test func cancellingDuringARequest() async throws {
        try await withHarness { h in
            try h.fault("hang", on: "/products/1")
            let task = Task {
                await outcome { () async throws(APIError) in try await h.client.send(ProductEndpoints.product(id: 1)) }
            }
            #expect(await eventually { h.probe.sent.count == 1 })
            try await Task.sleep(for: .milliseconds(200))  // let the request reach the server and hang there
            task.cancel()

            let result = await task.value
            #expect(throws: APIError.self) { try result.get() }
            if case .failure(let error) = result {
                #expect(error.kind == .cancelled)
                #expect(error.attempts == 1)
            }
            let journal = await h.settledRequests(to: "/products/1", count: 1)
            #expect(journal.count == 1, "the cancelled attempt was not retried")
            #expect(journal.first?.fault == "hang")
            #expect(h.probe.sent.count == 1)
        }
    }

    @Test func cancellingDuringTheBackoffWait() async throws {
        try await withHarness { h in
            try h.fault("status=503; retry-after=30", on: "/products/1")
            let start = ContinuousClock.now
            let task = Task {
                await outcome { () async throws(APIError) in try await h.client.send(ProductEndpoints.product(id: 1)) }
            }
            // The 503 is back, so the client is (or is about to be) asleep for thirty seconds.
            #expect(await eventually(within: .seconds(20)) { h.probe.finished == 1 })
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()

            let result = await task.value
            #expect(ContinuousClock.now - start < .seconds(20), "the wait was cut short, not slept through")
            #expect(throws: APIError.self) { try result.get() }
            if case .failure(let error) = result {
                #expect(error.kind == .cancelled)
                #expect(error.attempts == 1)
            }
            let journal = await h.settledRequests(to: "/products/1", count: 1)
            #expect(journal.map(\.status) == [503], "no attempt after the cancelled wait")
            #expect(h.probe.sent.count == 1)
        }
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        try await withHarness { h in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await outcome { () async throws(APIError) in try await h.client.send(ProductEndpoints.product(id: 1)) }
            }
            let result = await task.value
            if case .failure(let error) = result {
                #expect(error.kind == .cancelled)
                #expect(error.attempts == 0)
            } else {
                Issue.record("a cancelled task still got a product")
            }
            #expect(h.probe.sent.isEmpty)
            #expect(h.journalCount == 0)
        }
    }
}
