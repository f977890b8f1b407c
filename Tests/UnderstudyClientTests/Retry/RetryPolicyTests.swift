import Foundation
import Testing
@testable import UnderstudyClient

@Suite struct RetryPolicyTests {
    private let policy = RetryPolicy(maximumAttempts: 5, baseDelay: .milliseconds(500), maximumDelay: .seconds(3))

    @Test(arguments: [(0, 500), (1, 1000), (2, 2000), (3, 3000), (10, 3000), (200, 3000)])
    func ceilingDoublesUpToTheCap(retry: Int, milliseconds: Int) {
        #expect(policy.backoffCeiling(forRetry: retry) == .milliseconds(milliseconds))
    }

    @Test(arguments: [0.0, 0.25, 0.5, 0.999_999, 1.0, -3, 7])
    func fullJitterStaysWithinZeroAndTheCeiling(unit: Double) {
        for retry in 0..<8 {
            let delay = policy.backoff(forRetry: retry, unit: unit)
            #expect(delay >= .zero)
            #expect(delay <= policy.backoffCeiling(forRetry: retry))
        }
        #expect(policy.backoff(forRetry: 1, unit: 0) == .zero)
        #expect(policy.backoff(forRetry: 1, unit: 0.5) == .milliseconds(500))
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatuses(status: Int) {
        var error = APIError(status == 429 ? .rateLimited : status >= 500 ? .serverError : .httpStatus)
        error.status = status
        #expect(policy.isRetryable(error))
    }

    @Test(arguments: [400, 403, 404, 409, 422, 501, 505])
    func otherStatusesAreFinal(status: Int) {
        var error = APIError(status >= 500 ? .serverError : .httpStatus)
        error.status = status
        #expect(!policy.isRetryable(error))
    }

    @Test(arguments: APIError.Kind.allCases)
    func transportKinds(kind: APIError.Kind) {
        let expected: Set<APIError.Kind> = [.connectionLost, .timedOut, .noConnection]
        #expect(policy.isRetryable(APIError(kind)) == expected.contains(kind))
    }
}

@Suite struct RetryStateTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)

    private func outcome(_ kind: APIError.Kind, status: Int? = nil, retryAfter: RetryAfter? = nil,
                         unit: Double = 1) -> RetryState.Outcome {
        var error = APIError(kind)
        error.status = status
        error.retryAfter = retryAfter
        return RetryState.Outcome(error: error, now: now, unit: unit)
    }

    @Test func threeAttemptsByDefault() {
        var state = RetryState(policy: .standard, isReplayable: true)
        #expect(state.next(after: outcome(.serverError, status: 503)) == .retry(after: .milliseconds(500)))
        #expect(state.next(after: outcome(.serverError, status: 503)) == .retry(after: .seconds(1)))
        #expect(state.attempts == 3)
        guard case .fail(let error) = state.next(after: outcome(.serverError, status: 503)) else {
            Issue.record("expected failure")
            return
        }
        #expect(error.status == 503)
    }

    @Test func nonReplayableNeverRetries() {
        var state = RetryState(policy: .standard, isReplayable: false)
        #expect(state.next(after: outcome(.connectionLost)) == .fail(APIError(.connectionLost)))
    }

    @Test(arguments: [APIError.Kind.cancelled, .decodingFailed, .unauthorized, .invalidURL, .encodingFailed])
    func neverRetried(kind: APIError.Kind) {
        var state = RetryState(policy: .standard, isReplayable: true)
        #expect(state.next(after: outcome(kind)) == .fail(APIError(kind)))
    }

    @Test func retryAfterSecondsAndDateAreHonoured() {
        var state = RetryState(policy: .standard, isReplayable: true)
        #expect(state.next(after: outcome(.rateLimited, status: 429, retryAfter: .seconds(7))) == .retry(after: .seconds(7)))
        let date = RetryAfter.date(now.addingTimeInterval(12))
        #expect(state.next(after: outcome(.serverError, status: 503, retryAfter: date)) == .retry(after: .seconds(12)))
    }

    @Test func retryAfterInThePastMeansNoWait() {
        var state = RetryState(policy: .standard, isReplayable: true)
        let date = RetryAfter.date(now.addingTimeInterval(-30))
        #expect(state.next(after: outcome(.serverError, status: 503, retryAfter: date)) == .retry(after: .zero))
    }

    @Test func retryAfterOverTheClampFailsInsteadOfSleeping() {
        var state = RetryState(policy: RetryPolicy(maximumRetryAfter: .seconds(60)), isReplayable: true)
        #expect(state.next(after: outcome(.rateLimited, status: 429, retryAfter: .seconds(60))) == .retry(after: .seconds(60)))
        var fresh = RetryState(policy: RetryPolicy(maximumRetryAfter: .seconds(60)), isReplayable: true)
        guard case .fail(let error) = fresh.next(after: outcome(.rateLimited, status: 429, retryAfter: .seconds(61))) else {
            Issue.record("expected failure")
            return
        }
        #expect(error.kind == .rateLimited)
        #expect(error.underlying?.contains("exceeds") == true)
        #expect(fresh.attempts == 1)
    }
}

@Suite struct RetryAfterTests {
    @Test(arguments: [("120", RetryAfter.seconds(120)), ("0", .seconds(0)), (" 5 ", .seconds(5))])
    func deltaSeconds(header: String, expected: RetryAfter) {
        #expect(RetryAfter(headerValue: header) == expected)
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ])
    func httpDateInAllThreeForms(header: String) {
        #expect(RetryAfter(headerValue: header) == .date(Date(timeIntervalSince1970: 784_111_777)))
    }

    @Test(arguments: ["", "-5", "1.5", "soon", "+3", "Sun, 06 Nov 1994"])
    func garbageIsIgnored(header: String) {
        #expect(RetryAfter(headerValue: header) == nil)
    }

    @Test func hugeDeltaStillParsesAndIsRefusedByTheClamp() {
        let value = RetryAfter(headerValue: "99999999999999999999999")
        #expect(value == .seconds(Int.max))
        #expect(value?.delay(relativeTo: Date()) ?? .zero > RetryPolicy.standard.maximumRetryAfter)
    }

    @Test func dateFormatsBackAsIMFFixdate() {
        #expect(RetryAfter.date(Date(timeIntervalSince1970: 784_111_777)).description == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
