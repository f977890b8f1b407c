import UnderstudyLocking
import Foundation
import Testing
import Understudy

@Suite struct AuthFlowTests {
    @Test func loginMeRefreshLogout() async throws {
        try await withServer { _, client in
            let login = try await client.json("POST", "/auth/login", raw: #"{"username": "emilys", "password": "emilyspass", "expiresInMins": 30}"#)
            #expect(login.status == 200)
            let tokens = try login.decode(TokenPairReply.self)
            let (access, refresh) = (tokens.accessToken, tokens.refreshToken)
            #expect(login.header("Set-Cookie")?.contains("Max-Age=1800") == true)

            let me = try await client.send("/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(me.status == 200)
            let user = try me.decode(UserReply.self)
            #expect(user.username == "emilys")
            #expect(!user.address.city.isEmpty)

            let renewed = try await client.json("POST", "/auth/refresh", raw: #"{"refreshToken": "\#(refresh)", "expiresInMins": 10}"#)
            #expect(renewed.status == 200)
            let newAccess = try renewed.decode(TokenPairReply.self).accessToken
            #expect(try await client.send("/auth/me", headers: ["Authorization": "Bearer \(newAccess)"]).status == 200)

            let guarded = try await client.send("/auth/products/1", headers: ["Authorization": "Bearer \(access)"])
            #expect(try guarded.decode(ProductReply.self).id == 1)
            let logout = try await client.send("POST", "/auth/logout", headers: ["Authorization": "Bearer \(access)"])
            #expect(logout.message == "Logged out successfully")
        }
    }

    @Test func authFailuresAreExactAndNeverChallenge() async throws {
        try await withServer { _, client in
            let wrong = try await client.json("POST", "/auth/login", ["username": "emilys", "password": "nope"])
            #expect(wrong.status == 400)
            #expect(wrong.message == "Invalid credentials")
            let anonymous = try await client.send("/auth/me")
            #expect(anonymous.status == 401)
            #expect(anonymous.message == "Access Token is required")
            #expect(anonymous.header("WWW-Authenticate") == nil)
            let garbage = try await client.send("/auth/me", headers: ["Authorization": "Bearer not-a-token"])
            #expect(garbage.message == "Invalid/Expired Token!")
            let missing = try await client.json("POST", "/auth/refresh", [String: String]())
            #expect(missing.status == 401)
            #expect(missing.message == "Refresh token required")
        }
    }

    @Test func tokensExpireOnTheServersClock() async throws {
        let clock = ManualClock(now: 1_900_000_000)
        try await withServer({ $0.clock = { clock.now } }) { _, client in
            let access = try await client.accessToken()
            #expect(try await client.send("/auth/me", headers: ["Authorization": "Bearer \(access)"]).status == 200)
            clock.advance(by: 3_601)
            let expired = try await client.send("/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(expired.status == 401)
            #expect(expired.message == "Token Expired!")
        }
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds: Locked<Double>
    init(now: Double) { seconds = Locked(now) }
    var now: Double { seconds.withLock { $0 } }
    func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}
