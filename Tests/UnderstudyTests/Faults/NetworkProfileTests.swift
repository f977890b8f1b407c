import Testing
@testable import Understudy
import UnderstudyFaultSpec

/// Network profiles and the throttling directives, as the server decides them: what each preset sets, how a
/// session's profile goes under a request's own fault, and the seeded draws they take.
@Suite struct NetworkProfileTests {
    @Test func aProfileSetsTheRatesTheLatencyAndThePauses() throws {
        let spec = try FaultSpec(parsing: "profile=3G")
        #expect(spec.pacing == .bytesPerSecond(97_500))
        #expect(spec.uploadBytesPerSecond == 41_250)
        #expect(spec.delay == 200...200)
        #expect(spec.stall == nil)
        #expect(spec.text == "profile=3G")
        let bad = try FaultSpec(parsing: "profile=very-bad-network")
        #expect(bad.pacing == .bytesPerSecond(125_000))
        #expect(bad.delay == 1_000...1_000)
        #expect(bad.stall == 200...1_000)
    }

    @Test func totalLossHangs() throws {
        let spec = try FaultSpec(parsing: "profile=100-loss")
        #expect(spec.connection == .hang)
        #expect(spec.pacing == nil)
        #expect(spec.replacesReply)
    }

    @Test func everyPresetIsFoundByItsOwnNameAndItsPublishedOne() {
        for profile in Fault.NetworkProfile.all {
            #expect(Fault.NetworkProfile.named(profile.name) == profile)
            #expect(Fault.NetworkProfile.named(profile.name.uppercased()) == profile)
        }
        #expect(Fault.NetworkProfile.named("Edge") == .edge)
        #expect(Fault.NetworkProfile.named("LTE") == .lte)
        #expect(Fault.NetworkProfile.named("DSL") == .dsl)
        #expect(Fault.NetworkProfile.named("5g") == nil)
        #expect(Fault.NetworkProfile.named("") == nil)
    }

    @Test func theNewDirectivesAreRead() throws {
        let spec = try FaultSpec(parsing: "delay=100ms; jitter=50ms; rate=64k; uprate=16k; stall=200ms..1s")
        #expect(spec.delay == 100...100)
        #expect(spec.jitter == 50)
        #expect(spec.pacing == .bytesPerSecond(64_000))
        #expect(spec.uploadBytesPerSecond == 16_000)
        #expect(spec.stall == 200...1_000)
        #expect(spec.text == "delay=100ms; jitter=50ms; rate=64k; uprate=16k; stall=200ms..1s")
        #expect(!spec.isPlainErrorStatus)
    }

    @Test func aSessionProfileFillsWhatTheRequestsFaultLeavesOpen() throws {
        let own = try FaultSpec(parsing: "rate=1k; status=503")
        let throttled = own.throttled(by: .threeG)
        #expect(throttled.pacing == .bytesPerSecond(1_000))
        #expect(throttled.delay == 200...200)
        #expect(throttled.uploadBytesPerSecond == 41_250)
        #expect(throttled.text == "rate=1k; status=503; profile=3g")
        // A request that names a profile keeps its own.
        let named = try FaultSpec(parsing: "profile=edge")
        #expect(named.throttled(by: .threeG) == named)
    }

    @Test func aProfiledSessionThrottlesItsRequestsAndNoOtherSession() {
        var book = FaultBook(seed: 7)
        _ = book.startSession("slow", seed: 1, profile: .edge)
        _ = book.startSession("fast", seed: 2)
        let request = HTTPRequest(method: "GET", target: "/products/1")
        let slow = book.decide(for: request, session: "slow", target: .body, requested: nil, nowMilliseconds: 0)
        #expect(slow.decision?.spec.pacing == .bytesPerSecond(30_000))
        #expect(slow.decision?.source == .session)
        #expect(slow.decision?.delayMilliseconds == 840)
        let fast = book.decide(for: request, session: "fast", target: .body, requested: nil, nowMilliseconds: 0)
        #expect(fast.decision == nil)
        #expect(book.profiledSessionCount == 1)
    }

    @Test func jitterAndStallsAreDrawnFromTheSessionsSeed() throws {
        let spec = try FaultSpec(parsing: "delay=100ms; jitter=1s; stall=100ms..900ms")
        func draws(seed: UInt64) -> (Int, UInt64) {
            var book = FaultBook(seed: 1)
            _ = book.startSession("s", seed: seed)
            let decision = book.decide(for: HTTPRequest(method: "GET", target: "/products"), session: "s", target: .body,
                                       requested: FaultBook.Decision(spec: spec, source: .header),
                                       nowMilliseconds: 0).decision
            return (decision?.delayMilliseconds ?? -1, decision?.scheduleSeed ?? 0)
        }
        let first = draws(seed: 42)
        #expect(first == draws(seed: 42))
        #expect((100...1_100).contains(first.0))
        let others = (43..<53).map { draws(seed: $0) }
        #expect(others.contains { $0.0 != first.0 })
        #expect(others.contains { $0.1 != first.1 })
    }
}
