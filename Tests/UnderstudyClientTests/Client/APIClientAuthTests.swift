import Foundation
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport
import UnderstudyTesting

@Suite struct APIClientAuthTests {
    private let protected = Endpoint<Item>(path: "auth/items/1", requiresAuthentication: true)
    private let refreshed = #"{"accessToken":"a2","refreshToken":"r2"}"#

    private func store(_ tokens: TokenPair? = TokenPair(accessToken: "a1", refreshToken: "r1")) async -> TokenStore {
        // A refresher of the test's own: the client library knows no API's refresh request.
        let store = TokenStore(refresher: { tokens, client in
            try await client.send(Endpoint<TokenPair>(path: "auth/refresh", method: .post,
                                                        body: .json(["refreshToken": tokens.refreshToken ?? ""]),
                                                        isReplayable: true))
        })
        await store.setTokens(tokens)
        return store
    }

    @Test func noTokenMeansNoAuthorizationHeader() async throws {
        let host = StubHost([.json(#"{"id":1,"title":"a"}"#)])
        let client = Fixtures.client(host, auth: await store(nil))
        _ = try await client.send(Endpoint<Item>(path: "items/1", requiresAuthentication: true))
        #expect(host.requests.first?.header("Authorization") == nil)
    }

    @Test func publicEndpointsDoNotCarryTheToken() async throws {
        let host = StubHost([.json(#"{"id":1,"title":"a"}"#)])
        let client = Fixtures.client(host, auth: await store())
        _ = try await client.send(Endpoint<Item>(path: "items/1"))
        #expect(host.requests.first?.header("Authorization") == nil)
    }

    @Test func aSecond401AfterTheRefreshIsFinal() async throws {
        let host = StubHost([
            .message("Token Expired!", status: 401), .json(refreshed), .message("Invalid/Expired Token!", status: 401),
        ])
        let tokens = await store()
        let client = Fixtures.client(host, auth: tokens)
        let error = await #expect(throws: APIError.self) { try await client.send(protected) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.serverMessage == "Invalid/Expired Token!")
        #expect(error?.attempts == 2)
        #expect(host.requests.count == 3)
        #expect(await tokens.refreshCount == 1)
    }

    @Test func aRejectedRefreshEndsAsUnauthorized() async throws {
        let host = StubHost([.message("Token Expired!", status: 401), .message("Invalid refresh token", status: 403)])
        let client = Fixtures.client(host, auth: await store())
        let error = await #expect(throws: APIError.self) { try await client.send(protected) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.status == 401)
        #expect(error?.underlying?.contains("Invalid refresh token") == true)
        #expect(host.requests.count == 2)
    }

    @Test func tenConcurrentRequestsShareOneRefresh() async throws {
        let refreshed = refreshed
        let host = StubHost(fallback: { request in
            if request.url?.path == "/auth/refresh" { return .json(refreshed) }
            if request.header("Authorization") == "Bearer a2" { return .json(#"{"id":1,"title":"ok"}"#) }
            return .message("Token Expired!", status: 401)
        })
        let tokens = await store()
        let client = Fixtures.client(host, auth: tokens)
        let protected = protected
        let values = try await withThrowingTaskGroup(of: Item.self) { group in
            for _ in 0..<10 { group.addTask { try await client.send(protected) } }
            var values: [Item] = []
            for try await value in group { values.append(value) }
            return values
        }
        #expect(values.count == 10)
        #expect(await tokens.refreshCount == 1)
        #expect(host.requests.filter { $0.url?.path == "/auth/refresh" }.count == 1)
    }
}
