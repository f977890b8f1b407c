import Foundation
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport
import UnderstudyTesting

@Suite struct EventSourceTests {
    private let endpoint = Endpoint<EmptyResponse>(path: "stream")

    @Test func reconnectsWithLastEventIDAndStopsOn204() async throws {
        let host = StubHost([
            .eventStream([": hi\n", "id: 1\ndata: a\n", "\nid: 2\ndata: partial"], endingWith: .networkConnectionLost),
            .eventStream(["retry: 10\ndata: b\n\n"]),
            .status(204),
        ])
        let client = Fixtures.client(host)
        var received: [ServerSentEvent] = []
        for try await event in client.events(endpoint) { received.append(event) }
        #expect(received.map(\.data) == ["a", "b"])
        #expect(received.map(\.id) == ["1", "1"])
        #expect(received.last?.retry == .milliseconds(10))
        let requests = host.requests
        #expect(requests.count == 3)
        #expect(requests[0].header("Last-Event-ID") == nil)
        #expect(requests[0].header("Accept") == "text/event-stream")
        #expect(requests[0].header("Cache-Control") == "no-cache")
        #expect(requests[1].header("Last-Event-ID") == "1")
        #expect(requests[2].header("Last-Event-ID") == "1")
    }

    @Test func emptyIDMeansNoLastEventIDOnReconnect() async throws {
        let host = StubHost([.eventStream(["id: 1\ndata: a\n\nid:\ndata: b\n\n"]), .status(204)])
        let client = Fixtures.client(host)
        var count = 0
        for try await _ in client.events(endpoint) { count += 1 }
        #expect(count == 2)
        #expect(host.requests[1].header("Last-Event-ID") == nil)
    }

    @Test func aResumedIDIsSentUntilTheStreamClearsIt() async throws {
        let host = StubHost([.eventStream(["data: a\n\n"]), .eventStream(["id:\ndata: b\n\n"]), .status(204)])
        let client = Fixtures.client(host)
        var options = EventSource.Options()
        options.lastEventID = "41"
        var count = 0
        for try await _ in client.events(endpoint, options: options) { count += 1 }
        #expect(count == 2)
        #expect(host.requests.map { $0.header("Last-Event-ID") } == ["41", "41", nil])
    }

    @Test func a401HeadRefreshesTheTokenOnceAndReconnects() async throws {
        let host = StubHost([.message("Token Expired!", status: 401), .eventStream(["data: a\n\n"]), .status(204)])
        let store = TokenStore { _, _ in TokenPair(accessToken: "a2", refreshToken: "r2") }
        await store.setTokens(TokenPair(accessToken: "a1", refreshToken: "r1"))
        let client = Fixtures.client(host, auth: store)
        let secured = Endpoint<EmptyResponse>(path: "stream", requiresAuthentication: true)
        var received: [String] = []
        for try await event in client.events(secured) { received.append(event.data) }
        #expect(received == ["a"])
        #expect(host.requests.map { $0.header("Authorization") } == ["Bearer a1", "Bearer a2", "Bearer a2"])
        #expect(await store.refreshCount == 1)
    }

    @Test func clientErrorStatusEndsTheStream() async throws {
        let host = StubHost([.status(503), .message("gone", status: 404)])
        let client = Fixtures.client(host)
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.events(endpoint) {}
        }
        #expect(error?.kind == .httpStatus)
        #expect(error?.status == 404)
        #expect(host.requests.count == 2)
    }

    @Test func wrongContentTypeFails() async throws {
        let host = StubHost([.json("{}")])
        let client = Fixtures.client(host)
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.events(endpoint) {}
        }
        #expect(error?.kind == .invalidResponse)
    }

    @Test func leavingTheLoopClosesTheConnection() async throws {
        let host = StubHost([.eventStream(["data: a\n\n"], endingWith: nil)])
        let client = Fixtures.client(host)
        for try await event in client.events(endpoint) {
            #expect(event.data == "a")
            break
        }
        #expect(host.requests.count == 1)
    }

    @Test func silenceLongerThanTheIdleTimeoutCountsAsALostConnection() async throws {
        let host = StubHost(fallback: { _ in .eventStream([": open\n"], staysOpen: true) })
        let client = Fixtures.client(host)
        var options = EventSource.Options()
        options.idleTimeout = .milliseconds(50)
        options.maximumFailures = 1
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.events(endpoint, options: options) {}
        }
        #expect(error?.kind == .timedOut)
        #expect(host.requests.count == 2)
    }

    @Test func givesUpAfterTheFailureLimit() async throws {
        let host = StubHost(fallback: { _ in .failure(.cannotConnectToHost) })
        let client = Fixtures.client(host)
        var options = EventSource.Options()
        options.maximumFailures = 2
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.events(endpoint, options: options) {}
        }
        #expect(error?.kind == .noConnection)
        #expect(host.requests.count == 3)
    }
}

@Suite struct ReconnectStateTests {
    private func state() -> ReconnectState {
        ReconnectState(baseDelay: .seconds(1), maximumDelay: .seconds(8), maximumFailures: nil)
    }

    @Test func equalJitterDoublesUpToTheCap() {
        var state = state()
        var ceilings: [Duration] = []
        for _ in 0..<6 {
            if case .reconnect(let delay) = state.connectionEnded(.endOfStream, deliveredEvents: false, unit: 1) {
                ceilings.append(delay)
            }
        }
        #expect(ceilings == [1, 2, 4, 8, 8, 8].map { .seconds($0) })
        #expect(state.connectionEnded(.endOfStream, deliveredEvents: false, unit: 0) == .reconnect(after: .seconds(4)))
    }

    @Test func anEventResetsTheBackoffAndRetryChangesTheBase() {
        var state = state()
        _ = state.connectionEnded(.endOfStream, deliveredEvents: false, unit: 1)
        _ = state.connectionEnded(.endOfStream, deliveredEvents: false, unit: 1)
        state.retryChanged(to: .milliseconds(200))
        #expect(state.connectionEnded(.endOfStream, deliveredEvents: true, unit: 1) == .reconnect(after: .milliseconds(200)))
    }

    @Test(arguments: [
        (204, ReconnectState.Action.stop),
        (404, .fail(.httpStatus)),
        (401, .fail(.unauthorized)),
    ])
    func statusesThatStop(status: Int, action: ReconnectState.Action) {
        var state = state()
        var error = APIError(status == 401 ? .unauthorized : .httpStatus)
        error.status = status
        let ending: ReconnectState.Ending = status == 204 ? .noContent : .failed(error)
        #expect(state.connectionEnded(ending, deliveredEvents: false, unit: 0.5) == action)
    }

    @Test(arguments: [APIError.Kind.serverError, .rateLimited, .timedOut, .connectionLost, .noConnection])
    func transientFailuresReconnect(kind: APIError.Kind) {
        var state = state()
        let action = state.connectionEnded(.failed(APIError(kind)), deliveredEvents: false, unit: 0.5)
        #expect(action == .reconnect(after: .seconds(1)))
    }

    @Test func theServersRetryIsTheLeastWait() {
        var state = state()
        state.retryChanged(to: .milliseconds(1500))
        var waits: [Duration] = []
        for _ in 0..<3 {
            if case .reconnect(let delay) = state.connectionEnded(.endOfStream, deliveredEvents: false, unit: 0) {
                waits.append(delay)
            }
        }
        #expect(waits == [.milliseconds(1500), .milliseconds(1500), .seconds(3)])
        #expect(state.connectionEnded(.endOfStream, deliveredEvents: true, unit: 0) == .reconnect(after: .milliseconds(1500)))

        state.retryChanged(to: .seconds(20))
        #expect(state.connectionEnded(.endOfStream, deliveredEvents: true, unit: 1) == .reconnect(after: .seconds(20)),
                "above maximumDelay (8 s) the server's retry still wins")
    }
}
