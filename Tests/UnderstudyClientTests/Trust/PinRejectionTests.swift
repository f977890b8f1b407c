import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import UnderstudyClient
import UnderstudyLocking

/// The session delegate cancels a challenge whose chain has no pinned key, and the cancellation that follows is
/// reported as a pin mismatch: once per refusal, for that host only.
@Suite struct PinRejectionTests {
    @Test func aCancellationAfterARefusedPinIsAPinMismatchOncePerRefusal() {
        let router = SessionRouter(pinnedKeys: nil)
        router.pinRejections.withLock { $0["localhost"] = 2 }
        let cancelled = URLError(.cancelled)
        #expect(router.classify(cancelled, host: "other.example").kind == .cancelled)
        #expect(router.classify(cancelled, host: nil).kind == .cancelled)
        let first = router.classify(cancelled, host: "localhost")
        #expect(first.kind == .pinMismatch)
        #expect(first.underlying == "no key in localhost's certificate chain is pinned")
        #expect(router.classify(cancelled, host: "localhost").kind == .pinMismatch)
        #expect(router.classify(cancelled, host: "localhost").kind == .cancelled)
    }

    @Test func otherErrorsLeaveARefusalForTheirCancellation() {
        let router = SessionRouter(pinnedKeys: nil)
        router.pinRejections.withLock { $0["localhost"] = 1 }
        #expect(router.classify(URLError(.timedOut), host: "localhost").kind == .timedOut)
        #expect(router.classify(URLError(.cancelled), host: "localhost").kind == .pinMismatch)
    }
}
