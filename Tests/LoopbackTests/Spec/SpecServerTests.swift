import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// A document served over real sockets: the mock's answers through the whole pipeline, with every fault,
/// sessions, the journal and the admin API.
@Suite struct SpecServerTests {
    private let server: UnderstudyServer
    private let client: HTTPTestClient

    init() throws {
        var configuration = UnderstudyServer.Configuration()
        configuration.spec = try OpenAPISpec(text: SpecFixtures.pets, name: "pets.json")
        server = try UnderstudyServer.start(configuration)
        client = HTTPTestClient(server: server)
    }

    private func json(_ reply: HTTPTestClient.Reply) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
    }

    @Test func theDocumentAnswersWithoutDummyJSONsWindow() async throws {
        defer { server.stop() }
        let pets = try await client.send("/pets")
        #expect(pets.status == 200)
        #expect(pets.header("Content-Type") == "application/json")
        #expect(pets.header("X-RateLimit-Limit") == nil)
        #expect(pets.text.contains("\"Rex\""))
        let head = try await client.send("HEAD", "/pets")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        let wrong = try await client.send("PUT", "/pets")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET, HEAD, POST")
        #expect(wrong.header("Content-Type") == "application/problem+json")
    }

    @Test func everyFaultActsOnADocumentsAnswer() async throws {
        defer { server.stop() }
        let unavailable = try await client.send("/pets", headers: ["X-Understudy-Fault": "status=503; retry-after=2"])
        #expect(unavailable.status == 503)
        #expect(unavailable.header("Retry-After") == "2")
        let whole = try await client.send("/pets/1")
        let started = Date()
        let delayed = try await client.send("/pets/1", headers: ["X-Understudy-Fault": "delay=300ms"])
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(delayed.body == whole.body)
        // A token an hour (the longest window): no starved run of the suite refills it between the two requests.
        let limited = try await client.send("/pets/1", headers: ["X-Understudy-Fault": "rate-limit=1/3600s"])
        #expect(limited.header("X-RateLimit-Limit") == "1")
        #expect(try await client.send("/pets/1", headers: ["X-Understudy-Fault": "rate-limit=1/3600s"]).status == 429)
        await #expect(throws: (any Error).self) {
            _ = try await client.send("/pets/1", headers: ["X-Understudy-Fault": "truncate=5"])
        }
    }

    @Test func aStatusFaultAnswersWithTheDocumentsOwnResponse() async throws {
        defer { server.stop() }
        // getPet documents its 404: the fault's answer is the document's, so a generated client can decode it.
        let documented = try await client.send("/pets/1", headers: ["X-Understudy-Fault": "status=404; retry-after=3"])
        #expect(documented.status == 404)
        #expect(json(documented)?["message"] as? String == "no such pet")
        #expect(documented.header("Retry-After") == "3")
        #expect(documented.header("X-Understudy-Fault-Applied") == "status=404; retry-after=3")
        // A message of the fault's own, or a status the operation does not document, is the fault's body.
        let told = try await client.send("/pets/1", headers: ["X-Understudy-Fault": "status=404; message=gone"])
        #expect(json(told)?["message"] as? String == "gone")
        let undocumented = try await client.send("/pets/mine", headers: ["X-Understudy-Fault": "status=503"])
        #expect(undocumented.status == 503)
        #expect(json(undocumented)?["message"] as? String == "Service Unavailable")
    }

    @Test func sessionsKeepTheirOwnState() async throws {
        defer { server.stop() }
        let created = try await client.json("POST", "/pets", raw: #"{"name":"Fido"}"#,
                                            headers: ["Authorization": "Bearer t", "X-Understudy-Session": "one"])
        #expect(created.status == 201)
        #expect(json(created)?["id"] as? Int == 3)
        let mine = try await client.send("/pets", headers: ["X-Understudy-Session": "one"])
        let theirs = try await client.send("/pets", headers: ["X-Understudy-Session": "two"])
        #expect(mine.text.contains("Fido"))
        #expect(!theirs.text.contains("Fido"))
        let journal = try await client.send("/__understudy/requests?session=one")
        #expect(journal.text.contains("\"path\":\"/pets\""))
        server.reset()
        #expect(!(try await client.send("/pets", headers: ["X-Understudy-Session": "one"])).text.contains("Fido"))
    }

    @Test func theAdminAPIListsOperationsAndForcesAnAnswer() async throws {
        defer { server.stop() }
        #expect(try await client.send("/__understudy/health").text.hasSuffix(",\"spec\":true}"))
        let listed = try await client.send("/__understudy/spec")
        #expect(listed.status == 200)
        #expect(listed.text.contains("\"id\":\"getPet\""))
        let forced = try await client.json("PUT", "/__understudy/spec/operations/getPet", raw: #"{"code":404}"#)
        #expect(forced.status == 200)
        let missing = try await client.send("/pets/1")
        #expect(missing.status == 404)
        #expect(missing.text.contains("no such pet"))
        // getPet has a default response, which answers any code; myPets has only a 200.
        #expect(try await client.json("PUT", "/__understudy/spec/operations/myPets", raw: #"{"code":418}"#).status == 400)
        #expect(try await client.json("PUT", "/__understudy/spec/operations/nope", raw: #"{"code":404}"#).status == 404)
        #expect(try await client.send("DELETE", "/__understudy/spec/operations/getPet").status == 200)
        #expect(try await client.send("/pets/1").status == 200)
    }

    @Test func validationAnswersAsTheDocumentSays() async throws {
        defer { server.stop() }
        let unauthorized = try await client.json("POST", "/pets", raw: #"{"name":"Fido"}"#)
        #expect(unauthorized.status == 401)
        #expect(unauthorized.header("WWW-Authenticate") == #"Bearer, APIKey header="X-API-Key""#)
        let invalid = try await client.json("POST", "/pets", raw: #"{"status":"lost"}"#, headers: ["Authorization": "Bearer t"])
        #expect(invalid.status == 422)
        #expect(json(invalid)?["message"] as? String == "invalid pet")
        let problem = try await client.send("/pets?limit=1000")
        #expect(problem.status == 422)
        #expect(problem.header("Content-Type") == "application/problem+json")
        #expect(problem.text.contains("\"location\":[\"query\",\"limit\"]"))
    }
}

/// The admin API of a server that serves no document.
@Suite struct SpecAdminWithoutDocumentTests {
    @Test func theSpecRoutesSayThereIsNone() async throws {
        let server = try UnderstudyServer.start()
        defer { server.stop() }
        let reply = try await HTTPTestClient(server: server).send("/__understudy/spec")
        #expect(reply.status == 409)
        #expect(reply.message?.contains("--spec") == true)
    }
}
