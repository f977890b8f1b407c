import Testing
@testable import Understudy

/// `FaultBook.decide(for:session:target:requested:nowMilliseconds:)`: one call, one lock, every draw.
@Suite struct FaultDecisionTests {
    private let request = HTTPRequest(method: "GET", target: "/products/1")

    private func decide(_ book: inout FaultBook, _ spec: String?, session: String? = nil, now: Double = 0) throws
        -> FaultDecision.Outcome {
        let requested = try spec.map { FaultBook.Decision(spec: try FaultSpec(parsing: $0), source: .header) }
        return book.decide(for: request, session: session, target: .body, requested: requested, nowMilliseconds: now)
    }

    @Test func noFaultStillSaysWhichSeedPayloadsUse() throws {
        var book = FaultBook(seed: 9)
        _ = book.startSession("s", seed: 42)
        #expect(try decide(&book, nil).decision == nil)
        #expect(try decide(&book, nil).payloadSeed == 9)
        #expect(try decide(&book, nil, session: "s").payloadSeed == 42)
    }

    @Test func aRuleIsChosenWhenTheRequestAsksForNothing() throws {
        var book = FaultBook(seed: 1)
        _ = book.add(FaultRule(match: .init(path: "/products/*"), fault: "status=503", times: 1),
                     spec: try FaultSpec(parsing: "status=503"))
        let first = try decide(&book, nil)
        #expect(first.decision?.spec.status == 503)
        #expect(first.decision?.source == .rule("rule-1"))
        #expect(try decide(&book, nil).decision == nil)
        // A requested fault wins and spends nothing of the rule's budget.
        #expect(try decide(&book, "status=418").decision?.source == .header)
    }

    @Test func drawsTheDelayTakesTheTokenAndDrawsGarbageFromTheSeed() throws {
        func outcome(seed: UInt64) throws -> FaultDecision {
            var book = FaultBook(seed: seed)
            return try #require(try decide(&book, "delay=10ms..5000ms; rate-limit=5/1s; garbage").decision)
        }
        let one = try outcome(seed: 1)
        #expect((10...5_000).contains(one.delayMilliseconds))
        #expect(one.rateLimit?.allowed == true && one.rateLimit?.remaining == 4)
        #expect(one.garbage.count == 512)
        let again = try outcome(seed: 1)
        #expect(again.delayMilliseconds == one.delayMilliseconds && again.garbage == one.garbage)
        let other = try outcome(seed: 2)
        #expect(other.delayMilliseconds != one.delayMilliseconds || other.garbage != one.garbage)
    }

    @Test func aRefusedTokenDrawsNoGarbage() throws {
        var book = FaultBook(seed: 1)
        _ = try decide(&book, "rate-limit=1/60s; garbage")
        let refused = try #require(try decide(&book, "rate-limit=1/60s; garbage").decision)
        #expect(refused.rateLimit?.allowed == false)
        #expect(refused.garbage.isEmpty)
    }
}
