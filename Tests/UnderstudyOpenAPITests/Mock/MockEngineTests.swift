import Testing
import UnderstudyJSON
@testable import UnderstudyOpenAPI

/// The mock's answers, values in and out: routing and its 404/405, response choice and `Prefer`, examples and
/// generated bodies, request validation in Prism's order, and headers.
@Suite struct MockEngineTests {
    private let engine: MockEngine

    init() throws {
        engine = try MockFixtures.engine()
    }

    private func send(_ target: String, method: String = "GET", headers: [(String, String)] = [], body: String? = nil) -> MockResponse {
        let parts = target.split(separator: "?", maxSplits: 1)
        return engine.respond(to: MockRequest(method: method, path: String(parts[0]), rawQuery: parts.count > 1 ? String(parts[1]) : nil,
                                              headers: headers.map { (name: $0.0, value: $0.1) }, body: Array((body ?? "").utf8)),
                              session: "test", seed: 7, now: 1_700_000_000)
    }

    @Test func theLowest2xxAnswersWithItsFirstExample() {
        let response = send("/pets")
        #expect(response.status == 200)
        #expect(response.operationID == "listPets")
        #expect(response.headers.first { $0.name == "Content-Type" }?.value == "application/json")
        #expect(MockFixtures.json(response)?.arrayValue?.count == 2)
    }

    @Test func concretePathsWinOverTemplatedOnes() {
        #expect(send("/pets/mine").operationID == "myPets")
        #expect(send("/pets/7").operationID == "getPet")
    }

    @Test func aServersBasePathIsOptional() {
        #expect(send("/v1/pets/mine").operationID == "myPets")
        #expect(send("/v2/pets/mine").status == 404)
    }

    @Test func unknownPathsAndMethodsAreProblems() {
        let missing = send("/owners")
        #expect(missing.status == 404)
        #expect(missing.headers.first { $0.name == "Content-Type" }?.value == "application/problem+json")
        let wrong = send("/pets", method: "PUT")
        #expect(wrong.status == 405)
        #expect(wrong.headers.first { $0.name == "Allow" }?.value == "GET, HEAD, POST")
        #expect(MockFixtures.json(wrong)?["title"] == .string("Method Not Allowed"))
    }

    @Test func preferChoosesTheCodeAndExampleAndWinsOverTheQuery() {
        #expect(send("/pets/1", headers: [("Prefer", "code=404")]).status == 404)
        #expect(MockFixtures.json(send("/pets", headers: [("Prefer", "example=none")]))?.arrayValue?.count == 0)
        #expect(MockFixtures.json(send("/pets?__example=none"))?.arrayValue?.count == 0)
        // A Prefer header, any, makes the query's preferences count for nothing.
        #expect(MockFixtures.json(send("/pets?__example=none", headers: [("Prefer", "return=minimal")]))?.arrayValue?.count == 2)
        #expect(send("/pets/1?__code=500").status == 500)
        #expect(send("/pets/1", headers: [("Prefer", "code=418")]).status == 418)
        #expect(send("/pets/mine", headers: [("Prefer", "code=418")]).status == 404)
        #expect(send("/pets", headers: [("Prefer", "example=nope")]).status == 404)
        #expect(send("/pets", headers: [("Prefer", "code=abc")]).status == 400)
    }

    @Test func dynamicBodiesAreSeededAndValid() throws {
        // Ids no list holds, so each is made from the schema (and then kept, in the session each has).
        let first = engine.respond(to: MockRequest(method: "GET", path: "/pets/91", headers: [("Prefer", "dynamic=true, seed=42")]), session: "a")
        let again = engine.respond(to: MockRequest(method: "GET", path: "/pets/91", headers: [("Prefer", "dynamic=true, seed=42")]), session: "b")
        let other = engine.respond(to: MockRequest(method: "GET", path: "/pets/91", headers: [("Prefer", "dynamic=true, seed=43")]), session: "c")
        #expect(first.body == again.body)
        #expect(first.body != other.body)
        let graph = engine.document.graph
        let schema = try #require(engine.document.operations.first { $0.id == "getPet" }?.responses.first?.content.first?.schema)
        #expect(SchemaValidator(graph: graph).violations(of: try #require(MockFixtures.json(first)), against: schema).isEmpty)
    }

    @Test func acceptChoosesTheMediaTypeOr406() {
        #expect(send("/pets/1", headers: [("Accept", "application/xml")]).headers.first?.value == "application/xml")
        #expect(String(decoding: send("/pets/1", headers: [("Accept", "application/xml")]).body, as: UTF8.self).hasPrefix("<root>"))
        #expect(send("/pets/1", headers: [("Accept", "text/csv")]).status == 406)
        #expect(send("/pets/1", headers: [("Accept", "text/csv, */*;q=0.1")]).status == 200)
    }

    @Test func securityComesFirstWithItsChallenges() {
        let refused = send("/pets", method: "POST", body: "{}")
        #expect(refused.status == 401)
        #expect(refused.headers.first { $0.name == "WWW-Authenticate" }?.value == "Bearer, APIKey header=\"X-API-Key\"")
        #expect(send("/pets", method: "POST", headers: [("X-API-Key", "k"), ("Content-Type", "application/json")], body: #"{"name":"Fido"}"#).status == 201)
    }

    @Test func anInvalidBodyGetsTheDocumentsOwn422() {
        let invalid = send("/pets", method: "POST", headers: [("Authorization", "Bearer t"), ("Content-Type", "application/json")],
                           body: #"{"name": "", "status": "lost"}"#)
        #expect(invalid.status == 422)
        #expect(MockFixtures.json(invalid)?["message"] == .string("invalid pet"))
        // The document's body says nothing of why; the mock's header does.
        let reason = invalid.headers.first { $0.name == MockEngine.refusedHeader }?.value ?? ""
        #expect(reason.contains("body.name") && reason.contains("body.status"), "\(reason)")
    }

    @Test func aWrongMediaTypeIs415() {
        let refused = send("/pets", method: "POST", headers: [("Authorization", "Bearer t"), ("Content-Type", "text/plain")], body: "x")
        #expect(refused.status == 422 || refused.status == 415)
    }

    @Test func invalidParametersAreAProblemNamingEachPlace() throws {
        let invalid = send("/search?ids=1|x&filter[age]=old", headers: [("X-Trace", "nothex")])
        #expect(invalid.status == 422)
        let value = try #require(MockFixtures.json(invalid))
        let locations = (value["validation"]?.arrayValue ?? []).compactMap { $0["location"]?.arrayValue?.compactMap(\.stringValue) }
        #expect(locations.contains(["query", "ids", "1"]))
        #expect(locations.contains(["query", "filter", "age"]))
        #expect(locations.contains(["header", "X-Trace"]))
        #expect(value["type"] == .string("urn:understudy:problem:UNPROCESSABLE_ENTITY"))
        #expect(send("/search?ids=1|2&filter[age]=3", headers: [("X-Trace", "0123abcd")]).status == 200)
        #expect(send("/search").status == 422)
        #expect(send("/pets?limit=500").status == 422)
        #expect(send("/pets/abc").status == 422)
    }

    @Test func withValidationOffAnythingIsAnswered() throws {
        var options = MockOptions()
        options.validatesRequests = false
        let open = try MockFixtures.engine(options)
        #expect(open.respond(to: MockRequest(method: "GET", path: "/search")).status == 200)
    }

    @Test func documentedHeadersAndDeprecationAreSent() {
        let created = send("/pets", method: "POST", headers: [("Authorization", "Bearer t"), ("Content-Type", "application/json")],
                           body: #"{"name":"Fido"}"#)
        #expect(created.headers.contains { $0.name == "Location" && $0.value == "/v1/pets/3" })
        let gone = send("/pets/1", method: "DELETE")
        #expect(gone.status == 204)
        #expect(gone.headers.contains { $0.name == "Deprecation" && $0.value == "true" })
    }

    @Test func headersThatFrameTheMessageAreNeverTakenFromTheDocument() throws {
        // OpenAI's speech endpoint documents `Transfer-Encoding` with a string schema.
        let text = #"""
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/speech": {"post": {"responses": {"200": {
          "description": "audio", "headers": {"Transfer-Encoding": {"schema": {"type": "string"}},
            "Content-Length": {"schema": {"type": "integer"}}, "Connection": {"schema": {"type": "string"}},
            "X-Request-Id": {"schema": {"type": "string", "example": "r1"}}},
          "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}}}}}}
        """#
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(text)), options: MockOptions())
        let response = engine.respond(to: MockRequest(method: "POST", path: "/speech", rawQuery: nil, headers: [], body: []),
                                      session: "test", seed: 7, now: 1_700_000_000)
        let names = response.headers.map { $0.name.lowercased() }
        #expect(response.status == 200)
        #expect(names.contains("x-request-id"))
        #expect(!names.contains("transfer-encoding") && !names.contains("content-length") && !names.contains("connection"))
    }

    @Test func headerParametersOpenAPISaysToIgnoreAreIgnored() throws {
        // DigitalOcean's documents `Accept` as a header parameter with an enum.
        let text = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/apps": {"get": {
          "parameters": [{"name": "Accept", "in": "header", "required": true, "schema": {"type": "string", "enum": ["application/json"]}},
                         {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string"}}],
          "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"ok": true}}}},
                        "422": {"description": "no", "content": {"application/json": {"example": {"message": "some error message"}}}}}}}}}
        """#
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(text)), options: MockOptions())
        func send(_ headers: [(name: String, value: String)]) -> MockResponse {
            engine.respond(to: MockRequest(method: "GET", path: "/apps", rawQuery: nil, headers: headers, body: []),
                           session: "test", seed: 7, now: 1_700_000_000)
        }
        #expect(send([("Accept", "*/*"), ("X-Trace", "t")]).status == 200)
        let refused = send([("Accept", "*/*")])
        #expect(refused.status == 422)
        #expect(refused.headers.first { $0.name == MockEngine.refusedHeader }?.value.contains("X-Trace") == true)
    }

    /// What schemathesis takes for valid and a 3.0 mock once refused: null where `nullable` sits beside a `oneOf`
    /// (OpenAI's `stop`), and a number past a float's range for `format: float`.
    @Test func nullableCompositionsAndLargeFloatsAreAccepted() throws {
        let text = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/runs": {"post": {
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "properties": {
            "stop": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}], "nullable": true},
            "value": {"type": "number", "format": "float"}, "count": {"type": "integer", "format": "int32"}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"ok": true}}}}}}}}}
        """#
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(text)), options: MockOptions())
        func send(_ body: String) -> Int {
            engine.respond(to: MockRequest(method: "POST", path: "/runs", rawQuery: nil, headers: [("Content-Type", "application/json")],
                                           body: Array(body.utf8)), session: "test", seed: 7, now: 1_700_000_000).status
        }
        #expect(send(#"{"stop": null, "value": 6.135250440327487e+59}"#) == 200)
        #expect(send(#"{"stop": 3}"#) == 422)
        #expect(send(#"{"count": 4294967296}"#) == 422)
    }

    /// Form fields are text: each is read as the type its schema takes, through `anyOf` branches and `nullable`
    /// (OpenAI's image variations `n` and transcription `stream`).
    @Test func formFieldsAreReadAsTheirSchemasTypesThroughCompositions() throws {
        let text = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/variations": {"post": {
          "requestBody": {"required": true, "content": {"multipart/form-data": {"schema": {"type": "object", "properties": {
            "n": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["auto"]}]},
            "stream": {"type": "boolean", "nullable": true}, "size": {"type": "string", "nullable": true},
            "keywords": {"type": "array", "nullable": true, "items": {"type": "string"}}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"ok": true}}}}}}}}}
        """#
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(text)), options: MockOptions())
        func send(_ fields: [(String, String)]) -> MockResponse {
            let body = fields.map { "--b\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined() + "--b--\r\n"
            return engine.respond(to: MockRequest(method: "POST", path: "/variations", rawQuery: nil,
                                                  headers: [("Content-Type", "multipart/form-data; boundary=b")], body: Array(body.utf8)),
                                  session: "test", seed: 7, now: 1_700_000_000)
        }
        let accepted = send([("n", "2"), ("stream", "false"), ("size", "null")])
        #expect(accepted.status == 200, "\(accepted.headers)")
        #expect(send([("n", "auto"), ("stream", "null")]).status == 200)
        // Each part of an array is one item, read as the item's type: "true" and "0" are strings here.
        let keywords = send([("keywords", "true"), ("keywords", "0"), ("keywords", "otter")])
        #expect(keywords.status == 200, "\(keywords.headers)")
        #expect(send([("n", "0")]).status == 422)
    }

    /// An empty array is no field at all in a form: OpenAI's image edit requires `image`, a file or an array of them.
    @Test func aRequiredArrayAbsentFromAFormIsEmpty() throws {
        let text = #"""
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/edits": {"post": {
          "requestBody": {"required": true, "content": {"multipart/form-data": {"schema": {"type": "object", "required": ["image", "prompt"],
            "properties": {"prompt": {"type": "string"}, "image": {"anyOf": [{"type": "string", "format": "binary"},
              {"type": "array", "maxItems": 16, "items": {"type": "string", "format": "binary"}}]},
              "files": {"type": "array", "minItems": 1, "items": {"type": "string"}}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"ok": true}}}}}}}}}
        """#
        let engine = MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(text)), options: MockOptions())
        let body = "--b\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\notter\r\n--b--\r\n"
        let response = engine.respond(to: MockRequest(method: "POST", path: "/edits", rawQuery: nil,
                                                      headers: [("Content-Type", "multipart/form-data; boundary=b")], body: Array(body.utf8)),
                                      session: "test", seed: 7, now: 1_700_000_000)
        #expect(response.status == 200, "\(response.headers)")
        let missingPrompt = engine.respond(to: MockRequest(method: "POST", path: "/edits", rawQuery: nil,
                                                           headers: [("Content-Type", "multipart/form-data; boundary=b")], body: Array("--b--\r\n".utf8)),
                                           session: "test", seed: 7, now: 1_700_000_000)
        #expect(missingPrompt.status == 422)
    }
}
