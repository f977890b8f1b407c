import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// Failures below HTTP: each is classified, and the transient ones are retried within the bound (GET).
@Suite(.timeLimit(.minutes(1))) struct TransportFailureTests {
    @Test func hangTripsTheOneSecondTimeout() async throws {
        try await withHarness(timeoutSeconds: 1) { h in
            try h.fault("hang", on: "/products/1")
            let start = ContinuousClock.now
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(ContinuousClock.now - start >= .seconds(3), "three attempts, each given its full second")
            #expect(error?.kind == .timedOut)
            #expect(error?.urlErrorCode == URLError.Code.timedOut.rawValue)
            #expect(error?.attempts == 3)

            // A hung request is journaled once the client gives up on it, with no status sent.
            let journal = await h.settledRequests(to: "/products/1", count: 3)
            #expect(journal.count == 3)
            #expect(journal.allSatisfy { $0.status == 0 && $0.fault == "hang" && $0.authorization == nil })
        }
    }

    @Test func hangThenRecoveryIsRetried() async throws {
        try await withHarness(timeoutSeconds: 1) { h in
            try h.fault("hang", on: "/products/1", times: 1)
            let reply = try await h.client.sendWithResponse(ProductEndpoints.product(id: 1))
            #expect(reply.value.id == 1)
            #expect(reply.attempts == 2)
            let journal = await h.settledRequests(to: "/products/1", count: 2)
            #expect(journal.map(\.status).sorted() == [0, 200])
        }
    }

    @Test func offlineServerIsNoConnection() async throws {
        try await withHarness(ownServer: true) { h in
            // Offline until the test's own server stops: under ThreadSanitizer with the whole suite a 30 s outage
            // ended before this task ran again, and the request reached the server.
            h.server.goOffline(for: .seconds(86_400))
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(error?.kind == .noConnection)
            #expect(error?.urlErrorCode == URLError.Code.cannotConnectToHost.rawValue)
            #expect(error?.attempts == 3, "refused connections are transient for a GET")
            #expect(h.journalCount == 0, "nothing reached the server")
        }
    }

    @Test func stoppedServerIsNoConnection() async throws {
        try await withHarness(retryPolicy: .never, ownServer: true) { h in
            h.server.stop()
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(error?.kind == .noConnection)
            #expect(error?.attempts == 1)
            #expect(h.probe.sent.count == 1)
            #expect(h.journalCount == 0)
        }
    }

    @Test func truncatedBodyIsConnectionLost() async throws {
        try await withHarness { h in
            try h.fault("truncate=100", on: "/products/1")
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(error?.kind == .connectionLost)
            #expect(error?.attempts == 3)
            let journal = await h.settledRequests(to: "/products/1", count: 3)
            #expect(journal.count == 3)
            #expect(journal.allSatisfy { $0.status == 200 && $0.bytesWritten == 100 })
        }
    }

    @Test func truncatedOnceIsRetriedToSuccess() async throws {
        try await withHarness { h in
            try h.fault("truncate=50%", on: "/products", times: 1)
            let reply = try await h.client.sendWithResponse(ProductEndpoints.list(limit: 10))
            #expect(reply.value.products.count == 10)
            #expect(reply.attempts == 2)
            #expect(await h.settledRequests(to: "/products", count: 2).count == 2)
        }
    }

    /// A TCP reset before any byte, a reset after the head, and a close without a byte are all a lost
    /// connection: the request may or may not have been acted on, and a GET is worth another try.
    @Test(arguments: ["reset", "reset=after-headers", "empty"])
    func abruptClosesAreConnectionLost(fault: String) async throws {
        try await withHarness { h in
            try h.fault(fault, on: "/products/1")
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(error?.kind == .connectionLost, "\(error?.description ?? "no error")")
            #expect(error?.attempts == 3)
            let journal = await h.settledRequests(to: "/products/1", count: 3)
            #expect(journal.count == 3)
            #expect(journal.allSatisfy { $0.fault == fault })
        }
    }
}
