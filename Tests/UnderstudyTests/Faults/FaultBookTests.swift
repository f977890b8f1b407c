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
        _ = book.add(rule, spec: try FaultSpecParser.parse(rule.fault))
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
        var mixed: [Double] = []
        for _ in 0..<10 {
            mixed.append(interleaved.draw(session: "a"))
            _ = interleaved.draw(session: "b")
        }
        let solo = (0..<10).map { _ in alone.draw(session: "a") }
        #expect(mixed == solo)
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
