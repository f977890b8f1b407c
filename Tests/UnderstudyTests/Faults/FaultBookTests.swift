import Testing
@testable import Understudy

@Suite struct FaultBookTests {
    private func request(_ target: String) -> HTTPRequest {
        HTTPRequest(method: "GET", target: target)
    }

    private func request(_ method: String, _ target: String, headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers)
    }

    private func add(_ book: inout FaultBook, _ rule: FaultRule) throws {
        _ = book.add(rule, spec: try FaultSpec(parsing: rule.fault))
    }

    @Test func budgetsAndAfterCounts() throws {
        var book = FaultBook(seed: 1)
        try add(&book, FaultRule(match: .init(path: "/products/*"), fault: "status=503", times: 2, after: 1))
        let fired = (0..<6).map { _ in book.decide(for: request("/products/1"), session: nil) != nil }
        #expect(fired == [false, true, true, false, false, false])
        #expect(book.rules[0].status.remaining == 0)
        #expect(book.rules[0].status.matched == 6)
    }

    @Test func matchesMethodPathHeadersAndQuery() throws {
        var book = FaultBook(seed: 1)
        try add(&book, FaultRule(match: .init(method: "post", path: "/auth/*", headers: ["x-client": "ios-?"],
                                             query: ["debug": "1"]), fault: "status=500"))
        #expect(book.decide(for: request("POST", "/auth/login?debug=1", headers: ["X-Client": "ios-7"]), session: nil) != nil)
        #expect(book.decide(for: request("GET", "/auth/login?debug=1", headers: ["X-Client": "ios-7"]), session: nil) == nil)
        #expect(book.decide(for: request("POST", "/auth/login", headers: ["X-Client": "ios-7"]), session: nil) == nil)
        #expect(book.decide(for: request("POST", "/auth/login?debug=1", headers: ["X-Client": "ios-17"]), session: nil) == nil)
    }

    @Test func sessionRulesApplyOnlyToTheirSession() throws {
        var book = FaultBook(seed: 1)
        try add(&book, FaultRule(fault: "status=500", session: "a"))
        #expect(book.decide(for: request("/x"), session: "a") != nil)
        #expect(book.decide(for: request("/x"), session: "b") == nil)
        #expect(book.decide(for: request("/x"), session: nil) == nil)
        #expect(book.removeAll(session: "b") == 0)
        #expect(book.removeAll(session: "a") == 1)
    }

    @Test func probabilityDrawsReplayForTheSameSeedAndSession() throws {
        func draws(seed: UInt64, session: String?) throws -> [Bool] {
            var book = FaultBook(seed: seed)
            if let session { _ = book.startSession(session, seed: nil) }
            try add(&book, FaultRule(fault: "status=500", probability: 0.3))
            return (0..<200).map { _ in book.decide(for: request("/x"), session: session) != nil }
        }
        #expect(try draws(seed: 9, session: "s") == draws(seed: 9, session: "s"))
        #expect(try draws(seed: 9, session: "s") != draws(seed: 9, session: "t"))
        #expect(try draws(seed: 9, session: nil) != draws(seed: 10, session: nil))
        let share = Double(try draws(seed: 9, session: "s").filter { $0 }.count) / 200
        #expect(share > 0.15 && share < 0.45)
    }

    @Test func sessionsDrawIndependently() {
        var interleaved = FaultBook(seed: 3)
        var alone = FaultBook(seed: 3)
        for session in ["a", "b"] { _ = interleaved.startSession(session, seed: nil) }
        _ = alone.startSession("a", seed: nil)
        var mixed: [Double] = []
        for _ in 0..<10 {
            mixed.append(interleaved.draw(session: "a"))
            _ = interleaved.draw(session: "b")
        }
        let solo = (0..<10).map { _ in alone.draw(session: "a") }
        #expect(mixed == solo)
    }

    /// A session id sent by a request is only a label until the admin API, Swift or a rule starts that session:
    /// a hostile client sending a new id every time makes the book no bigger.
    @Test func requestsCannotCreateSessionsOrUnboundedBuckets() throws {
        var book = FaultBook(seed: 3)
        try add(&book, FaultRule(fault: "status=500", probability: 0.5))
        let limit = FaultSpec.RateLimit(requests: 1, windowMilliseconds: 60_000)
        for index in 0..<3_000 {
            _ = book.decide(for: request("/x"), session: "hostile-\(index)")
            _ = book.delay(in: 1...100, session: "hostile-\(index)")
            _ = book.consume(limit, key: "rate-limit=1/60s", session: "hostile-\(index)", nowMilliseconds: Double(index))
        }
        #expect(book.sessionCount == 0)
        #expect(book.bucketCount == FaultBook.maximumBuckets)
        // The newest bucket survived the evictions: its session is still limited.
        #expect(!book.consume(limit, key: "rate-limit=1/60s", session: "hostile-2999", nowMilliseconds: 3_000).allowed)
    }

    @Test func unstartedSessionsDrawFromTheServersGenerator() {
        var labelled = FaultBook(seed: 3)
        var plain = FaultBook(seed: 3)
        #expect((0..<5).map { _ in labelled.draw(session: "label") } == (0..<5).map { _ in plain.draw(session: nil) })
        #expect(labelled.payloadSeed(session: "label") == 3)
    }

    @Test func rulesAndStartsMakeSessionsUpToTheCap() throws {
        var book = FaultBook(seed: 3)
        try add(&book, FaultRule(fault: "status=500", session: "ruled"))
        #expect(book.sessionSeeds.map(\.id) == ["ruled"])
        #expect(book.startSession("seeded", seed: 7) == 7)
        #expect(book.payloadSeed(session: "seeded") == 7)
        #expect(book.payloadSeed(session: "ruled") != 3)
        for index in 0..<FaultBook.maximumSessions { _ = book.startSession("s\(index)", seed: nil) }
        #expect(book.sessionCount == FaultBook.maximumSessions)
        // The least recently used went first: the two oldest.
        #expect(!book.sessionSeeds.contains { $0.id == "ruled" || $0.id == "seeded" })
        #expect(book.payloadSeed(session: "seeded") == 3)
    }

    @Test func reseedingKeepsGivenSeedsAndRederivesTheOthers() {
        var book = FaultBook(seed: 3)
        _ = book.startSession("given", seed: 7)
        let derived = book.startSession("derived", seed: nil)
        let first = book.draw(session: "given")
        book.setSeed(4)
        #expect(book.payloadSeed(session: "given") == 7)
        #expect(book.payloadSeed(session: "derived") != derived)
        #expect(book.draw(session: "given") == first)
    }

    @Test func endingASessionRemovesItsRulesAndBuckets() throws {
        var book = FaultBook(seed: 3)
        try add(&book, FaultRule(fault: "status=500", session: "gone"))
        try add(&book, FaultRule(fault: "status=503"))
        let limit = FaultSpec.RateLimit(requests: 1, windowMilliseconds: 60_000)
        _ = book.consume(limit, key: "k", session: "gone", nowMilliseconds: 0)
        let ended = book.endSession("gone")
        #expect(ended.hadSession && ended.rules == 1)
        #expect(book.rules.count == 1)
        #expect(book.bucketCount == 0)
        #expect(!book.endSession("gone").hadSession)
    }

    @Test func rulesOnlyFireWhereTheirDirectivesCanAct() throws {
        var book = FaultBook(seed: 1)
        try add(&book, FaultRule(fault: "drop-after=2", times: 1))
        #expect(book.decide(for: request("/products/1"), session: nil, target: .body) == nil)
        #expect(book.decide(for: request("/products/stream"), session: nil, target: .eventStream) != nil)
        #expect(book.rules[0].status.remaining == 0)
    }

    @Test func tokenBucketReportsWhenItIsFullAgain() {
        var bucket = TokenBucket(limit: .init(requests: 4, windowMilliseconds: 8_000), nowMilliseconds: 0)
        let first = bucket.take(nowMilliseconds: 0)
        #expect(first.allowed && first.remaining == 3 && first.resetsInSeconds == 2)
        #expect(!bucket.isFull(nowMilliseconds: 1_000))
        #expect(bucket.isFull(nowMilliseconds: 2_000))
    }

    @Test func tokenBucketRefillsContinuously() {
        var bucket = TokenBucket(limit: .init(requests: 2, windowMilliseconds: 1_000), nowMilliseconds: 0)
        #expect(bucket.take(nowMilliseconds: 0).allowed)
        #expect(bucket.take(nowMilliseconds: 0).allowed)
        let refused = bucket.take(nowMilliseconds: 100)
        #expect(!refused.allowed)
        #expect(refused.retryAfterSeconds == 1)
        #expect(bucket.take(nowMilliseconds: 600).allowed)
        #expect(!bucket.take(nowMilliseconds: 600).allowed)
    }

    @Test(arguments: [
        ("/products/*", "/products/1", true), ("/products/*", "/products", false), ("/products*", "/products", true),
        ("*", "/anything/at/all", true), ("/p?oducts", "/products", true), ("/a*b*c", "/axxbyyc", true),
        ("/a*b*c", "/axxbyy", false), ("", "", true),
    ])
    func globs(pattern: String, text: String, matches: Bool) {
        #expect(Glob.matches(pattern, text) == matches)
    }
}
