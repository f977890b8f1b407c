import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport
import UnderstudyTesting

/// Remembers every wait instead of waiting.
final class RecordingSleeper: Sendable {
    private let delays = Locked<[Duration]>([])

    var recorded: [Duration] { delays.withLock { $0 } }

    var sleeper: Sleeper {
        Sleeper { [self] duration in
            delays.withLock { $0.append(duration) }
            try Task.checkCancellation()
        }
    }
}

/// Records the order middleware runs in.
struct TagMiddleware: Middleware {
    let name: String
    let log: RecordingLog

    func intercept(_ request: URLRequest, next: MiddlewareNext) async throws -> (Data, HTTPURLResponse) {
        log.append("\(name)>")
        var request = request
        request.addValue(name, forHTTPHeaderField: "X-Trail")
        let result = try await next(request)
        log.append("<\(name)")
        return result
    }
}

final class RecordingLog: Sendable {
    private let lines = Locked<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

@Suite struct APIClientRetryTests {
    private let item = Endpoint<Item>(path: "items/1")
    private let ok = StubResponse.json(#"{"id":1,"title":"a"}"#)

    @Test func backoffWaitsAreJitteredAndCounted() async throws {
        let host = StubHost([.status(502), .failure(.networkConnectionLost), ok])
        let sleeper = RecordingSleeper()
        let client = Fixtures.client(host, sleeper: sleeper.sleeper)
        let response = try await client.sendWithResponse(item)
        #expect(response.attempts == 3)
        // random is fixed at 0.5: half of 0.5 s, then half of 1 s.
        #expect(sleeper.recorded == [.milliseconds(250), .milliseconds(500)])
    }

    @Test func givesUpAfterThreeAttempts() async throws {
        let host = StubHost(fallback: { _ in .message("Maintenance", status: 503) })
        let client = Fixtures.client(host)
        let error = await #expect(throws: APIError.self) { try await client.send(item) }
        #expect(error?.kind == .serverError)
        #expect(error?.attempts == 3)
        #expect(error?.serverMessage == "Maintenance")
        #expect(error?.method == .get)
        #expect(error?.url?.path == "/items/1")
        #expect(host.requests.count == 3)
    }

    @Test func linuxStyleTruncationAndTimeoutsAreRetried() async throws {
        let host = StubHost([.truncated(#"{"id":1,"#, missing: 12), .failure(.timedOut), ok])
        let client = Fixtures.client(host)
        let response = try await client.sendWithResponse(item)
        #expect(response.value.id == 1)
        #expect(response.attempts == 3)
    }

    @Test func truncationOfAPostIsAConnectionLostError() async throws {
        let host = StubHost([.truncated(#"{"id":1,"#, missing: 12)])
        let client = Fixtures.client(host)
        let error = await #expect(throws: APIError.self) {
            try await client.send(Endpoint<Item>(path: "items", method: .post))
        }
        #expect(error?.kind == .connectionLost)
        #expect(error?.underlying?.contains("transfer closed") == true)
    }

    @Test func retryAfterIsUsedAndOverTheClampFailsWithoutSleeping() async throws {
        let host = StubHost([.message("slow down", status: 429, headers: ["Retry-After": "2"]), ok,
                             .message("slow down", status: 429, headers: ["Retry-After": "3600"])])
        let sleeper = RecordingSleeper()
        let client = Fixtures.client(host, sleeper: sleeper.sleeper)
        #expect(try await client.send(item).id == 1)
        #expect(sleeper.recorded == [.seconds(2)])
        let error = await #expect(throws: APIError.self) { try await client.send(item) }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfter == .seconds(3600))
        #expect(sleeper.recorded == [.seconds(2)])
    }

    @Test func otherClientErrorsAreNotRetried() async throws {
        let host = StubHost([.message("Invalid 'limit' - must be a number", status: 400), ok])
        let client = Fixtures.client(host)
        let error = await #expect(throws: APIError.self) { try await client.send(item) }
        #expect(error?.kind == .httpStatus)
        #expect(host.requests.count == 1)
    }

    @Test func replayablePostIsRetried() async throws {
        let host = StubHost([.status(503), ok])
        let client = Fixtures.client(host)
        let request = Endpoint<Item>(path: "items", method: .post, body: .json(["a": 1]), isReplayable: true)
        #expect(try await client.send(request).id == 1)
        #expect(host.requests.count == 2)
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        let host = StubHost([ok])
        let client = Fixtures.client(host)
        let item = item
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(item)
        }
        let result = await task.result
        guard case .failure(let error as APIError) = result else {
            Issue.record("expected a cancellation error, got \(result)")
            return
        }
        #expect(error.kind == .cancelled)
        #expect(host.requests.isEmpty)
    }

    @Test func cancellationDuringTheBackoffStopsRetrying() async throws {
        let host = StubHost([.status(503), ok])
        let client = Fixtures.client(host, sleeper: Sleeper { _ in throw CancellationError() })
        let error = await #expect(throws: APIError.self) { try await client.send(item) }
        #expect(error?.kind == .cancelled)
        #expect(host.requests.count == 1)
    }

    @Test func middlewareWrapsEachAttemptOutermostFirst() async throws {
        let host = StubHost([.status(503), ok])
        let log = RecordingLog()
        let lines = RecordingLog()
        let client = Fixtures.client(host, middleware: [
            TagMiddleware(name: "outer", log: log), TagMiddleware(name: "inner", log: log),
            LoggingMiddleware { lines.append($0) }, HeadersMiddleware(["User-Agent": "UnderstudyClient"]),
        ])
        _ = try await client.send(item)
        #expect(log.all == ["outer>", "inner>", "<inner", "<outer", "outer>", "inner>", "<inner", "<outer"])
        #expect(host.requests.first?.header("X-Trail") == "outer,inner")
        #expect(host.requests.first?.header("User-Agent") == "UnderstudyClient")
        #expect(lines.all.count == 2)
        #expect(lines.all.first?.contains("-> 503") == true)
    }
}
