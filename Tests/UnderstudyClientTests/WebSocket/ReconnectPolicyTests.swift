import Foundation
import Testing
@testable import UnderstudyClient

/// When the reconnecting socket comes back, and when it stops: close codes, statuses, Retry-After, the budget.
@Suite struct ReconnectPolicyTests {
    private func closed(_ code: Int) -> APIError {
        var error = APIError(.connectionLost)
        error.closeCode = code
        return error
    }

    private func refused(_ status: Int, retryAfter: String? = nil) -> APIError {
        var error = APIError(status >= 500 ? .serverError : .httpStatus)
        error.status = status
        error.retryAfter = retryAfter.flatMap(RetryAfter.init(headerValue:))
        return error
    }

    @Test(arguments: [1001, 1006, 1011, 1012, 1013, 1014])
    func closesThatInviteItBackReconnect(code: Int) {
        #expect(ReconnectPolicy.standard.reconnectDelay(after: closed(code), failures: 1, unit: 0.5) != nil)
    }

    @Test(arguments: [1000, 1002, 1003, 1007, 1008, 1009, 1010, 4000])
    func closesThatMeanStopDoNot(code: Int) {
        #expect(ReconnectPolicy.standard.reconnectDelay(after: closed(code), failures: 1, unit: 0.5) == nil)
    }

    @Test func backoffIsExponentialWithFullJitterAndCapped() {
        let policy = ReconnectPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(1))
        let lost = APIError(.noConnection)
        #expect(policy.reconnectDelay(after: lost, failures: 1, unit: 1) == .milliseconds(100))
        #expect(policy.reconnectDelay(after: lost, failures: 3, unit: 1) == .milliseconds(400))
        #expect(policy.reconnectDelay(after: lost, failures: 8, unit: 1) == .seconds(1))
        #expect(policy.reconnectDelay(after: lost, failures: 3, unit: 0) == .zero)
    }

    @Test func aRefusalsRetryAfterIsTheWaitUpToItsClamp() {
        let policy = ReconnectPolicy(maximumRetryAfter: .seconds(5))
        #expect(policy.reconnectDelay(after: refused(503, retryAfter: "2"), failures: 1, unit: 0) == .seconds(2))
        #expect(policy.reconnectDelay(after: refused(503, retryAfter: "60"), failures: 1, unit: 0) == nil)
        #expect(policy.reconnectDelay(after: refused(401), failures: 1, unit: 0) == nil)
        #expect(policy.reconnectDelay(after: refused(403), failures: 1, unit: 0) == nil)
    }

    @Test func theBudgetCountsFailuresInARow() {
        let policy = ReconnectPolicy(maximumAttempts: 2)
        let lost = APIError(.timedOut)
        #expect(policy.reconnectDelay(after: lost, failures: 2, unit: 0.5) != nil)
        #expect(policy.reconnectDelay(after: lost, failures: 3, unit: 0.5) == nil)
        #expect(ReconnectPolicy(maximumAttempts: nil).reconnectDelay(after: lost, failures: 1_000, unit: 0.5) != nil)
        #expect(policy.reconnectDelay(after: APIError(.cancelled), failures: 1, unit: 0.5) == nil)
    }

    /// The accept value's hash, against FIPS 180's own test vectors and RFC 6455's sample handshake.
    @Test func sha1MatchesTheStandardsVectors() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        let accept = Data(SHA1.digest(Array(("dGhlIHNhbXBsZSBub25jZQ==" + SocketWebSocketChannel.acceptGUID).utf8)))
        #expect(accept.base64EncodedString() == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
