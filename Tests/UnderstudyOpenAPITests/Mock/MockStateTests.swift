import Testing
import UnderstudyJSON
@testable import UnderstudyOpenAPI

/// State no spec mock keeps: a collection the document implies remembers, per session, what is written to it.
@Suite struct MockStateTests {
    private let engine: MockEngine

    init() throws {
        engine = try MockFixtures.engine()
    }

    private func send(_ target: String, method: String = "GET", body: String? = nil, session: String? = "s") -> MockResponse {
        engine.respond(to: MockRequest(method: method, path: target,
                                       headers: [("Content-Type", "application/json"), ("Authorization", "Bearer t")],
                                       body: Array((body ?? "").utf8)), session: session, seed: 5, now: 1_700_000_000)
    }

    private func names(_ response: MockResponse) -> [String] {
        (MockFixtures.json(response)?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    @Test func aCreatedItemGetsTheNextIdAndServerFieldsAndIsListed() throws {
        let created = send("/pets", method: "POST", body: #"{"name":"Fido","status":"available"}"#)
        #expect(created.status == 201)
        let body = try #require(MockFixtures.json(created))
        #expect(body["id"] == .number(JSONNumber(3)))
        #expect(body["name"] == .string("Fido"))
        #expect(body["createdAt"] == .string("2023-11-14T22:13:20Z"))
        #expect(names(send("/pets")) == ["Rex", "Tom", "Fido"])
        #expect(MockFixtures.json(send("/pets/3"))?["name"] == .string("Fido"))
    }

    @Test func patchChangesAndDeleteRemoves() {
        _ = send("/pets/1", method: "PATCH", body: #"{"name":"Rexy"}"#)
        #expect(MockFixtures.json(send("/pets/1"))?["name"] == .string("Rexy"))
        #expect(send("/pets/2", method: "DELETE").status == 204)
        let gone = send("/pets/2")
        #expect(gone.status == 404)
        #expect(MockFixtures.json(gone)?["message"] == .string("no such pet"))
        #expect(names(send("/pets")) == ["Rexy"])
    }

    @Test func anIdNeverSeenIsAnsweredFromTheDocumentWithThatId() {
        #expect(MockFixtures.json(send("/pets/77"))?["id"] == .number(JSONNumber(77)))
    }

    @Test func sessionsNeverSeeEachOthersWrites() {
        _ = send("/pets", method: "POST", body: #"{"name":"Mine"}"#, session: "a")
        #expect(names(send("/pets", session: "a")) == ["Rex", "Tom", "Mine"])
        #expect(names(send("/pets", session: "b")) == ["Rex", "Tom"])
        engine.reset(session: "a")
        #expect(names(send("/pets", session: "a")) == ["Rex", "Tom"])
    }

    @Test func statelessAnswersAsTheDocumentDoes() throws {
        var options = MockOptions()
        options.stateful = false
        let stateless = try MockFixtures.engine(options)
        let request = MockRequest(method: "DELETE", path: "/pets/1")
        #expect(stateless.respond(to: request).status == 204)
        #expect(stateless.respond(to: MockRequest(method: "GET", path: "/pets/1")).status == 200)
    }

    @Test func aForcedPreferenceAppliesUnderTheRequestsOwn() {
        engine.force(MockPreference(code: 404), operation: "getPet")
        #expect(send("/pets/1").status == 404)
        #expect(engine.respond(to: MockRequest(method: "GET", path: "/pets/1", headers: [("Prefer", "code=200")])).status == 200)
        engine.force(nil, operation: "getPet")
        #expect(send("/pets/1").status == 200)
    }
}
