import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON
import UnderstudyLocking
import UnderstudyTestSupport

/// Cancelling the calling task ends the request at once as `.cancelled`, and nothing more reaches the server.
@Suite(.timeLimit(.minutes(2))) struct CancellationTests {
    @Test func cancellingDuringARequest() async throws {
        try await withHarness { h in
            let rule = try h.fault("hang", on: "/products/1")
            let task = Task {
                await outcome { () async throws(APIError) in try await h.client.send(ProductEndpoints.product(id: 1)) }
            }
            // The hang rule fired: the request reached the server and hangs there.
            let hanging = await waitUntil(within: .seconds(30)) { h.server.faults.rules.first { $0.id == rule.id }?.fired == 1 }
            #expect(hanging, "the request never reached the server")
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
        let backoffs = Locked<[Duration]>([])
        let recording = Sleeper { duration in
            backoffs.withLock { $0.append(duration) }
            try await Task.sleep(for: duration)
        }
        try await withHarness(sleeper: recording) { h in
            try h.fault("status=503; retry-after=30", on: "/products/1")
            let task = Task {
                await outcome { () async throws(APIError) in try await h.client.send(ProductEndpoints.product(id: 1)) }
            }
            // The 503 is back and the client has gone to sleep for the thirty seconds it asked for. The deadline
            // bounds only a failure: under AddressSanitizer, with the whole suite on two cores, the 503 once took
            // longer than 20 s to come back.
            let asleep = await waitUntil(within: .seconds(90)) { backoffs.withLock { $0 } == [.seconds(30)] }
            #expect(asleep, "the client never began the Retry-After wait: \(backoffs.withLock { $0 })")
            // Timed from the cancel, not the start: reaching the wait took 20 s of a loaded ThreadSanitizer run.
            let cancelledAt = ContinuousClock.now
            task.cancel()

            let result = await task.value
            #expect(ContinuousClock.now - cancelledAt < .seconds(20), "the wait was cut short, not slept through")
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
