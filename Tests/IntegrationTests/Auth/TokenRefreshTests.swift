import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// A 401 on an authenticated endpoint leads to exactly one refresh, shared by every request that hit it.
@Suite(.timeLimit(.minutes(1))) struct TokenRefreshTests {
    @Test func oneExpiredTokenRefreshesOnceThenSucceeds() async throws {
        try await withHarness { h in
            let login = try await h.signIn()
            try h.fault("expire-token", on: "/auth/me", times: 1)

            let user = try await h.client.send(AuthEndpoints.me())
            #expect(user.username == "emilys")
            #expect(await h.tokens.refreshCount == 1)
            let refreshed = try #require(await h.tokens.tokens)

            let me = h.requests(to: "/auth/me")
            #expect(me.count == 2)
            #expect(me.map(\.status) == [401, 200])
            #expect(me.first?.authorization == "Bearer \(login.accessToken)")
            #expect(me.last?.authorization == "Bearer \(refreshed.accessToken)")
            let refresh = h.requests(to: "/auth/refresh")
            #expect(refresh.count == 1)
            #expect(refresh.first?.status == 200)
            #expect(refresh.first?.authorization == nil, "the refresh sends the refresh token in the body instead")
        }
    }

    @Test func aTokenThatNeverWorksRefreshesOnceThenFails() async throws {
        try await withHarness { h in
            try await h.signIn()
            try h.fault("status=401", on: "/auth/me")

            let error = await #expect(throws: APIError.self) {
                try await h.client.send(AuthEndpoints.me())
            }
            #expect(error?.kind == .unauthorized)
            #expect(error?.status == 401)
            #expect(error?.serverMessage == "Token Expired!")
            #expect(error?.attempts == 2)
            #expect(await h.tokens.refreshCount == 1)

            let me = h.requests(to: "/auth/me")
            #expect(me.count == 2, "one refresh-and-retry per request, never a loop")
            #expect(me.allSatisfy { $0.authorization?.hasPrefix("Bearer ey") == true })
            #expect(h.requests(to: "/auth/refresh").count == 1)
        }
    }

    @Test func aRefreshHitBy503IsRetriedOnItsOwn() async throws {
        try await withHarness { h in
            try await h.signIn()
            try h.fault("expire-token", on: "/auth/me", times: 1)
            try h.fault("status=503", on: "/auth/refresh", times: 1)

            let user = try await h.client.send(AuthEndpoints.me())
            #expect(user.username == "emilys")
            #expect(await h.tokens.refreshCount == 1, "one refresh, whose request was sent twice")
            #expect(h.requests(to: "/auth/me").map(\.status) == [401, 200])
            #expect(h.requests(to: "/auth/refresh").map(\.status) == [503, 200])
        }
    }

    @Test func aRejectedRefreshTokenEndsInUnauthorized() async throws {
        try await withHarness { h in
            try await h.signIn()
            try h.fault("expire-token", on: "/auth/me")
            try h.fault("status=401; message=Invalid refresh token", on: "/auth/refresh")

            let error = await #expect(throws: APIError.self) {
                try await h.client.send(AuthEndpoints.me())
            }
            #expect(error?.kind == .unauthorized)
            #expect(error?.attempts == 1)
            #expect(error?.underlying?.contains("Invalid refresh token") == true, "the refresh failure is the cause")
            #expect(h.requests(to: "/auth/me").count == 1, "no retry without a new token")
            #expect(h.requests(to: "/auth/refresh").count == 1)
        }
    }

    @Test func withoutTokensNothingIsRefreshed() async throws {
        try await withHarness { h in
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(AuthEndpoints.me())
            }
            #expect(error?.kind == .unauthorized)
            #expect(error?.attempts == 1)
            let me = h.requests(to: "/auth/me")
            #expect(me.count == 1)
            #expect(me.first?.authorization == nil)
            #expect(h.requests(to: "/auth/refresh").isEmpty)
        }
    }

    /// Ten requests all carrying a token the server rejects: a gate holds them until all ten are on their way, so
    /// every first attempt fails with the bad token and the single-flight refresh is really contended.
    @Test func tenConcurrent401sShareOneRefresh() async throws {
        let gate = GateMiddleware(count: 10) { request in
            request.url?.path == "/auth/me" && request.value(forHTTPHeaderField: "Authorization") == "Bearer not.a.jwt"
        }
        try await withHarness(extraMiddleware: [gate]) { h in
            let login = try await h.signIn()
            await h.tokens.setTokens(TokenPair(accessToken: "not.a.jwt", refreshToken: login.refreshToken))

            let users = try await withThrowingTaskGroup(of: User.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await h.client.send(AuthEndpoints.me()) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(users.count == 10)
            #expect(users.allSatisfy { $0.username == "emilys" })
            #expect(await h.tokens.refreshCount == 1)
            let refreshed = try #require(await h.tokens.tokens)

            let me = h.requests(to: "/auth/me")
            #expect(me.count == 20)
            let rejected = me.filter { $0.authorization == "Bearer not.a.jwt" }
            let accepted = me.filter { $0.authorization == "Bearer \(refreshed.accessToken)" }
            #expect(rejected.count == 10)
            #expect(rejected.allSatisfy { $0.status == 401 })
            #expect(accepted.count == 10)
            #expect(accepted.allSatisfy { $0.status == 200 })
            #expect(h.requests(to: "/auth/refresh").count == 1)
        }
    }
}
