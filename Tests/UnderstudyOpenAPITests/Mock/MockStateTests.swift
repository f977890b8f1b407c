import Foundation
import Testing
import UnderstudyJSON
@testable import UnderstudyOpenAPI
import UnderstudyTestSupport

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

    /// `x-understudy-state: false` on one operation: it answers as the document says and leaves the state alone,
    /// while the collection's other operations keep theirs.
    @Test func anOperationMarkedStatelessLeavesTheStateAlone() throws {
        let marked = SpecFixtures.pets.replacingOccurrences(of: #""delete": {"operationId": "deletePet","#,
                                                            with: #""delete": {"operationId": "deletePet", "x-understudy-state": false,"#)
        #expect(marked != SpecFixtures.pets, "the fixture's delete moved")
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(marked)),
                                options: MockOptions())
        func send(_ method: String, _ path: String) -> MockResponse {
            engine.respond(to: MockRequest(method: method, path: path, headers: [("Authorization", "Bearer t")]),
                           session: "s", seed: 5, now: 1_700_000_000)
        }
        #expect(send("DELETE", "/pets/2").status == 204)
        #expect(send("GET", "/pets/2").status == 200, "the delete changed nothing")
        #expect(names(send("GET", "/pets")) == ["Rex", "Tom"])
    }

    @Test func aForcedPreferenceAppliesUnderTheRequestsOwn() {
        engine.force(MockPreference(code: 404), operation: "getPet")
        #expect(send("/pets/1").status == 404)
        #expect(engine.respond(to: MockRequest(method: "GET", path: "/pets/1", headers: [("Prefer", "code=200")])).status == 200)
        engine.force(nil, operation: "getPet")
        #expect(send("/pets/1").status == 200)
    }

    /// DigitalOcean's shape: items wrapped in a member (`{"domain": {…}}`), a `uuid` id with no example, and a
    /// `writeOnly` field the create request carries.
    @Test func wrappedItemsGetAnIdOfTheirFormatAndNeverEchoWriteOnlyFields() throws {
        let text = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
          "/domains": {
            "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object",
              "properties": {"domains": {"type": "array", "items": {"$ref": "#/components/schemas/Domain"}}}}}}}}},
            "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Domain"}}}},
              "responses": {"201": {"description": "ok", "content": {"application/json": {"schema": {"type": "object",
                "properties": {"domain": {"$ref": "#/components/schemas/Domain"}}}}}}}}},
          "/domains/{domain_id}": {"get": {"parameters": [{"name": "domain_id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object",
              "properties": {"domain": {"$ref": "#/components/schemas/Domain"}}}}}}}}}},
          "components": {"schemas": {"Domain": {"type": "object", "properties": {
            "id": {"type": "string", "format": "uuid", "readOnly": true}, "name": {"type": "string"},
            "ip_address": {"type": "string", "writeOnly": true}}}}}}
        """#
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(text)), options: MockOptions())
        func send(_ path: String, method: String = "GET", body: String = "") -> JSONValue? {
            MockFixtures.json(engine.respond(to: MockRequest(method: method, path: path, headers: [("Content-Type", "application/json")],
                                                             body: Array(body.utf8)), session: "s", seed: 5, now: 1_700_000_000))
        }
        let created = try #require(send("/domains", method: "POST", body: #"{"name": "example.com", "ip_address": "192.0.2.1"}"#)?["domain"])
        let id = try #require(created["id"]?.stringValue)
        #expect(id.count == 36 && id.filter { $0 == "-" }.count == 4, "\(id)")
        #expect(created["name"] == .string("example.com"))
        #expect(created["ip_address"] == nil)
        let listed = send("/domains")?["domains"]?.arrayValue ?? []
        #expect(listed.contains { $0["id"]?.stringValue == id && $0["ip_address"] == nil })
        #expect(send("/domains/\(id)")?["domain"]?["name"] == .string("example.com"))
    }

    /// OpenAI's shape: item operations that document no 404. Deleting never makes the mock answer one.
    @Test func aDeletedItemIsNot404WhereTheDocumentHasNoneToGive() throws {
        let text = #"""
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {
          "/things": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"example": [{"id": "t1"}]}}}}}},
          "/things/{id}": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"id": "t1"}}}}}},
            "delete": {"responses": {"204": {"description": "gone"}}}}}}
        """#
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(text)), options: MockOptions())
        func send(_ method: String, _ path: String) -> Int {
            engine.respond(to: MockRequest(method: method, path: path, headers: [], body: []), session: "s", seed: 5, now: 1_700_000_000).status
        }
        #expect(send("DELETE", "/things/t1") == 204)
        #expect(send("GET", "/things/t1") == 200)
        #expect(send("DELETE", "/things/t1") == 204)
    }
}
