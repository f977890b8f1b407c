import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// Transient statuses are retried within the bound, honouring Retry-After; non-idempotent requests never are.
@Suite(.timeLimit(.minutes(1))) struct RetryTests {
    /// The one case that sleeps for real and for long: the wait is what is under test.
    @Test func rateLimitedHonoursRetryAfterThenSucceeds() async throws {
        try await withHarness { h in
            try h.fault("status=429; retry-after=1", on: "/products/1", times: 1)
            let start = ContinuousClock.now
            let reply = try await h.client.sendWithResponse(ProductEndpoints.product(id: 1))
            let elapsed = ContinuousClock.now - start
            #expect(reply.value.id == 1)
            #expect(reply.attempts == 2)
            #expect(elapsed >= .seconds(1))

            let journal = h.requests(to: "/products/1")
            #expect(journal.map(\.status) == [429, 200])
            #expect(journal.allSatisfy { $0.authorization == nil })
            if journal.count == 2 {
                #expect(journal[1].time - journal[0].time >= 1.0, "the server saw the retry a second later")
            }
        }
    }

    @Test func twoServiceUnavailablesThenSuccessTakesThreeAttempts() async throws {
        try await withHarness { h in
            try h.fault("status=503", on: "/products/1", times: 2)
            let reply = try await h.client.sendWithResponse(ProductEndpoints.product(id: 1))
            #expect(reply.value.id == 1)
            #expect(reply.attempts == 3)
            #expect(h.requests(to: "/products/1").map(\.status) == [503, 503, 200])
        }
    }

    @Test func retriesOfAnAuthenticatedRequestCarryTheToken() async throws {
        try await withHarness { h in
            let login = try await h.signIn()
            try h.fault("status=503", on: "/auth/me", times: 2)
            let reply = try await h.client.sendWithResponse(AuthEndpoints.me())
            #expect(reply.value.username == "emilys")
            #expect(reply.attempts == 3)
            #expect(await h.tokens.refreshCount == 0, "a 503 is not an auth failure")

            let journal = h.requests(to: "/auth/me")
            #expect(journal.map(\.status) == [503, 503, 200])
            #expect(journal.allSatisfy { $0.authorization == "Bearer \(login.accessToken)" })
            #expect(h.requests(to: "/auth/refresh").isEmpty)
        }
    }

    @Test func alwaysUnavailableGivesUpAtTheBoundWithTheServerMessage() async throws {
        try await withHarness { h in
            try h.fault("status=503; message=Down for maintenance", on: "/products/1")
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(error?.kind == .serverError)
            #expect(error?.status == 503)
            #expect(error?.attempts == 3)
            #expect(error?.serverMessage == "Down for maintenance")
            #expect(error?.description.contains("Down for maintenance") == true)

            let journal = h.requests(to: "/products/1")
            #expect(journal.count == 3)
            #expect(journal.allSatisfy { $0.status == 503 && $0.authorization == nil })
        }
    }

    @Test func postIsNotRetried() async throws {
        try await withHarness { h in
            try h.fault("status=503", on: "/products/add", method: "POST")
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.add(ProductDraft(title: "Lamp")))
            }
            #expect(error?.kind == .serverError)
            #expect(error?.status == 503)
            #expect(error?.attempts == 1)
            #expect(error?.serverMessage == "Service Unavailable")

            let journal = h.requests(to: "/products/add")
            #expect(journal.count == 1, "a POST may have had its effect: never sent twice")
            #expect(journal.first?.method == "POST")
        }
    }

    @Test func retryAfterBeyondTheClampFailsAtOnce() async throws {
        try await withHarness { h in
            try h.fault("status=503; retry-after=120", on: "/products/1", times: 1)
            let start = ContinuousClock.now
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(ContinuousClock.now - start < .seconds(30))
            #expect(error?.kind == .serverError)
            #expect(error?.retryAfter == .seconds(120))
            #expect(error?.attempts == 1)
            #expect(h.requests(to: "/products/1").count == 1)
        }
    }
}
