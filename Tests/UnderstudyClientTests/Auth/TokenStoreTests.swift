import Foundation
import Testing
@testable import UnderstudyClient

/// Holds refreshes until the test opens it.
private actor Gate {
    private var open = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        open = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

/// What DummyJSON answers a bad refresh token with.
private let refreshRejected: APIError = {
    var error = APIError(.httpStatus, underlying: "Invalid refresh token")
    error.status = 403
    return error
}()

@Suite struct TokenStoreTests {
    private let client = APIClient(baseURL: URL(fileURLWithPath: "/"))
    private let first = TokenPair(accessToken: "a1", refreshToken: "r1")
    private let second = TokenPair(accessToken: "a2", refreshToken: "r2")

    private func refreshConcurrently(_ store: TokenStore, count: Int, gate: Gate) async -> [Result<Credential, APIError>] {
        let rejected = await store.currentCredential()
        return await withTaskGroup(of: Result<Credential, APIError>.self) { group in
            for _ in 0..<count {
                group.addTask { [client] in
                    do throws(APIError) {
                        return .success(try await store.refreshedCredential(after: rejected, using: client))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            // Everyone, the caller that started the refresh included, is queued before the refresh may finish.
            while await store.waiterCount < count { await Task.yield() }
            await gate.release()
            var results: [Result<Credential, APIError>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    @Test func tenConcurrent401sStartExactlyOneRefresh() async throws {
        let gate = Gate()
        let second = second
        let store = TokenStore { _, _ in
            await gate.wait()
            return second
        }
        await store.setTokens(first)
        let results = await refreshConcurrently(store, count: 10, gate: gate)
        #expect(await store.refreshCount == 1)
        let credentials = results.compactMap { try? $0.get() }
        #expect(credentials.count == 10)
        #expect(Set(credentials) == [Credential(token: "a2", version: 2)])
        #expect(await store.tokens == second)
    }

    @Test func aFailedRefreshFailsEveryWaiterAndStaysFailed() async throws {
        let gate = Gate()
        let store = TokenStore { _, _ in
            await gate.wait()
            throw refreshRejected
        }
        await store.setTokens(first)
        let stale = await store.currentCredential()
        let results = await refreshConcurrently(store, count: 10, gate: gate)
        #expect(results.allSatisfy { (try? $0.get()) == nil })
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.kind == .unauthorized } else { false } })
        // The same token again: fails at once, no second refresh.
        let again = await #expect(throws: APIError.self) { try await store.refreshedCredential(after: stale, using: client) }
        #expect(again?.kind == .unauthorized)
        #expect(await store.refreshCount == 1)
        // New tokens (a fresh login) clear the failure.
        await store.setTokens(second)
        #expect(await store.currentCredential() == Credential(token: "a2", version: 2))
    }

    @Test func aRefreshThatDoesNotGetThroughIsNotSticky() async throws {
        let gate = Gate()
        let store = TokenStore { _, _ in
            await gate.wait()
            throw APIError(.noConnection, underlying: "connection refused")
        }
        await store.setTokens(first)
        let stale = await store.currentCredential()
        let results = await refreshConcurrently(store, count: 4, gate: gate)
        // Waiters see why the refresh failed, not a sign-out.
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.kind == .noConnection } else { false } })
        // The next 401 for the same token may try again.
        let again = await #expect(throws: APIError.self) { try await store.refreshedCredential(after: stale, using: client) }
        #expect(again?.kind == .noConnection)
        #expect(await store.refreshCount == 2)
    }

    @Test func cancellingTheRequestThatStartedTheRefreshFailsOnlyThatRequest() async throws {
        let gate = Gate()
        let second = second
        let store = TokenStore { _, _ in
            await gate.wait()
            return second
        }
        await store.setTokens(first)
        let rejected = await store.currentCredential()
        let leader = Task { [client] () async throws(APIError) -> Credential in
            try await store.refreshedCredential(after: rejected, using: client)
        }
        while await store.refreshCount == 0 { await Task.yield() }
        let follower = Task { [client] () async throws(APIError) -> Credential in
            try await store.refreshedCredential(after: rejected, using: client)
        }
        while await store.waiterCount < 2 { await Task.yield() }
        leader.cancel()
        let cancelled = await leader.result
        #expect(throws: APIError.self) { try cancelled.get() }
        await gate.release()
        #expect(try await follower.value == Credential(token: "a2", version: 2))
        #expect(await store.refreshCount == 1)
        #expect(await store.tokens == second)
    }

    @Test func aLoginOrLogoutDuringARefreshWins() async throws {
        for loggingOut in [false, true] {
            let gate = Gate()
            let second = second
            let store = TokenStore { _, _ in
                await gate.wait()
                return second
            }
            await store.setTokens(first)
            let rejected = await store.currentCredential()
            let waiting = Task { [client] () async throws(APIError) -> Credential in
                try await store.refreshedCredential(after: rejected, using: client)
            }
            while await store.waiterCount < 1 { await Task.yield() }
            let fresh = TokenPair(accessToken: "a3", refreshToken: "r3")
            await store.setTokens(loggingOut ? nil : fresh)
            await gate.release()
            let result = await waiting.result
            if loggingOut {
                #expect(throws: APIError.self) { try result.get() }
                #expect(await store.tokens == nil, "the refresh undid the logout")
            } else {
                #expect(try result.get().token == "a3")
                #expect(await store.tokens == fresh, "the refresh overwrote the new login")
            }
        }
    }

    @Test func a401ForAnOlderTokenRetriesWithTheCurrentOneWithoutRefreshing() async throws {
        let store = TokenStore { _, _ in throw refreshRejected }
        await store.setTokens(first)
        let old = await store.currentCredential()
        await store.setTokens(second)
        let credential = try await store.refreshedCredential(after: old, using: client)
        #expect(credential == Credential(token: "a2", version: 2))
        #expect(await store.refreshCount == 0)
    }

    @Test func noTokenOrNoRefresherMeansUnauthorized() async throws {
        let empty = TokenStore { _, _ in TokenPair(accessToken: "x") }
        let none = await #expect(throws: APIError.self) { try await empty.refreshedCredential(after: nil, using: client) }
        #expect(none?.kind == .unauthorized)
        let withoutRefresher = TokenStore()
        await withoutRefresher.setTokens(first)
        let current = await withoutRefresher.currentCredential()
        let error = await #expect(throws: APIError.self) {
            try await withoutRefresher.refreshedCredential(after: current, using: client)
        }
        #expect(error?.kind == .unauthorized)
    }

    @Test func tokensLoadFromStorage() async throws {
        let store = TokenStore(storage: InMemoryTokenStorage(first))
        #expect(await store.currentCredential()?.token == "a1")
        await store.setTokens(nil)
        #expect(await store.currentCredential() == nil)
    }
}

@Suite struct RefreshStateTests {
    @Test func transitionsReturnActions() {
        var state = RefreshState(tokens: TokenPair(accessToken: "a", refreshToken: "r"))
        let sent = state.credential
        let start = state.unauthorized(rejected: sent, waiter: 0, canRefresh: true)
        let waitOne = state.unauthorized(rejected: sent, waiter: 1, canRefresh: true)
        let waitTwo = state.unauthorized(rejected: sent, waiter: 2, canRefresh: true)
        #expect(start == .startRefresh(TokenPair(accessToken: "a", refreshToken: "r")))
        #expect(waitOne == .wait)
        #expect(waitTwo == .wait)
        let cancelled = state.cancel(waiter: 2)
        #expect(cancelled)
        let action = state.refreshSucceeded(TokenPair(accessToken: "b", refreshToken: "r2"))
        #expect(action == .resume([0, 1], Credential(token: "b", version: 1)))
        let stale = state.unauthorized(rejected: sent, waiter: 3, canRefresh: true)
        #expect(stale == .retry(Credential(token: "b", version: 1)))
    }

    @Test func onlyARejectedRefreshSticks() {
        var state = RefreshState(tokens: TokenPair(accessToken: "a", refreshToken: "r"))
        let sent = state.credential
        _ = state.unauthorized(rejected: sent, waiter: 0, canRefresh: true)
        #expect(state.refreshFailed(sticky: false) == .fail([0]))
        #expect(state.unauthorized(rejected: sent, waiter: 1, canRefresh: true) == .startRefresh(TokenPair(accessToken: "a", refreshToken: "r")))
        #expect(state.refreshFailed(sticky: true) == .fail([1]))
        #expect(state.unauthorized(rejected: sent, waiter: 2, canRefresh: true) == .fail("the token refresh already failed"))
    }

    @Test func emptyAccessTokenIsNoCredential() {
        let state = RefreshState(tokens: TokenPair(accessToken: ""))
        #expect(state.credential == nil)
    }
}
