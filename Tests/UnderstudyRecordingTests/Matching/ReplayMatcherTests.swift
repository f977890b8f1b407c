import Testing
@testable import UnderstudyRecording

@Suite struct ReplayMatcherTests {
    private func entry(_ method: String, _ path: String, query: [RecordedExchange.QueryItem] = [], body: String = "",
                       statuses: [Int] = [200], file: String? = nil) -> Recording.Entry {
        Recording.Entry(request: .init(method: method, path: path, query: query, headers: Exchanges.json, body: Array(body.utf8)),
                        responses: statuses.map { .init(status: $0) }, file: file ?? "\(method)\(path).json")
    }

    private func status(_ answer: ReplayAnswer) -> Int? {
        if case .hit(let response, _) = answer { response.status } else { nil }
    }

    @Test func givesTheNthAnswerToTheNthRequestThenRepeatsTheLast() {
        let matcher = ReplayMatcher(Recording(entries: [entry("GET", "/a", statuses: [503, 200, 201])]))
        let request = RecordedExchange.Request(method: "GET", path: "/a")
        #expect((0..<5).map { _ in status(matcher.answer(request)) } == [503, 200, 201, 201, 201])
        matcher.rewind()
        #expect(status(matcher.answer(request)) == 503)
    }

    @Test func matchesTheQueryInAnyOrderIgnoringListedParameters() {
        let recording = Recording(entries: [entry("GET", "/p", query: [.init("a", "1"), .init("b", "2"), .init("_", "9")])],
                                  options: RecordingOptions(ignoredQueryParameters: ["_"]))
        let matcher = ReplayMatcher(recording, adding: RecordingOptions(ignoredQueryParameters: ["cb"]))
        #expect(status(matcher.answer(.init(method: "GET", path: "/p", query: [.init("b", "2"), .init("cb", "x"), .init("a", "1")]))) == 200)
        #expect(status(matcher.answer(.init(method: "GET", path: "/p", query: [.init("a", "1")]))) == nil)
        #expect(status(matcher.answer(.init(method: "GET", path: "/p", query: [.init("a", "1"), .init("b", "3")]))) == nil)
    }

    @Test func comparesJSONBodiesInCanonicalFormAndSecretsAsPlaceholders() {
        let matcher = ReplayMatcher(Recording(entries: [
            entry("POST", "/auth/login", body: #"{"username":"emilys","password":"understudy-redacted-1","expiresInMins":30}"#),
        ]))
        let sent = RecordedExchange.Request(method: "POST", path: "/auth/login", headers: Exchanges.json,
                                            body: Array("{\n \"expiresInMins\": 30, \"password\": \"emilyspass\",\n \"username\": \"emilys\" }".utf8))
        #expect(status(matcher.answer(sent)) == 200)
        var other = sent
        other.body = Array(#"{"username":"someone","password":"x","expiresInMins":30}"#.utf8)
        #expect(status(matcher.answer(other)) == nil)
    }

    @Test func withRedactionOffSecretsMustMatchAsSent() {
        let recording = Recording(entries: [entry("POST", "/login", body: #"{"password":"a"}"#)], options: RecordingOptions(redacts: false))
        let matcher = ReplayMatcher(recording)
        #expect(status(matcher.answer(.init(method: "POST", path: "/login", body: Array(#"{"password":"a"}"#.utf8)))) == 200)
        #expect(status(matcher.answer(.init(method: "POST", path: "/login", body: Array(#"{"password":"b"}"#.utf8)))) == nil)
    }

    @Test func aMissNamesTheRequestAndAtMostThreeNearestRecordings() {
        let matcher = ReplayMatcher(Recording(entries: [
            entry("GET", "/users/1"),
            entry("DELETE", "/products/1"),
            entry("GET", "/products/1", query: [.init("select", "title")], file: "GET/products/1~abc.json"),
            entry("GET", "/products/2"),
            entry("GET", "/products"),
        ]))
        guard case .miss(let miss) = matcher.answer(.init(method: "GET", path: "/products/1", query: [.init("a", "1 2")])) else {
            Issue.record("expected a miss")
            return
        }
        #expect(miss.message == "No recording matches GET /products/1?a=1%202; nearest: GET /products/1?select=title (GET/products/1~abc.json), "
            + "DELETE /products/1 (DELETE/products/1.json), GET /products/2 (GET/products/2.json)")
        guard case .miss(let far) = ReplayMatcher(Recording(entries: [entry("GET", "/users/1")])).answer(.init(method: "GET", path: "/carts")) else {
            Issue.record("expected a miss")
            return
        }
        #expect(far.message == "No recording matches GET /carts; nothing recorded is near it")
    }

    @Test func twoFilesWithOneKeyJoinIntoOneSequence() {
        let matcher = ReplayMatcher(Recording(entries: [entry("GET", "/a", statuses: [200], file: "a.json"),
                                                        entry("GET", "/a", statuses: [201], file: "b.json")]))
        let request = RecordedExchange.Request(method: "GET", path: "/a")
        guard case .hit(_, let file) = matcher.answer(request) else { return }
        #expect(file == "a.json")
        #expect(status(matcher.answer(request)) == 201)
    }
}
