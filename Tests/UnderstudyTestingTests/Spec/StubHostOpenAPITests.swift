import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyTestSupport
import UnderstudyTesting

/// `StubHost(openAPI:)`: a unit test's URLSession answered by the document's mock, with no server.
@Suite struct StubHostOpenAPITests {
    private func send(_ session: URLSession, _ url: URL, method: String = "GET", headers: [String: String] = [:],
                      body: String? = nil) async throws -> (status: Int, text: String, response: HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http)
    }

    @Test func theDocumentAnswersExamplesPreferencesAndValidation() async throws {
        let host = try StubHost(openAPI: SpecFixtures.pets)
        let session = URLSession(configuration: host.sessionConfiguration())
        let pet = try await send(session, host.baseURL.appendingPathComponent("pets/1"))
        #expect(pet.status == 200)
        #expect(pet.text.contains("\"Rex\""))
        #expect(pet.response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let missing = try await send(session, host.baseURL.appendingPathComponent("pets/1"), headers: ["Prefer": "code=404"])
        #expect(missing.status == 404)
        #expect(missing.text.contains("no such pet"))
        let unauthorized = try await send(session, host.baseURL.appendingPathComponent("pets"), method: "POST",
                                          headers: ["Content-Type": "application/json"], body: #"{"name":"Fido"}"#)
        #expect(unauthorized.status == 401)
        let invalid = try await send(session, host.baseURL.appendingPathComponent("pets"), method: "POST",
                                     headers: ["Content-Type": "application/json", "Authorization": "Bearer t"], body: #"{"status":"lost"}"#)
        #expect(invalid.status == 422)
        let nowhere = try await send(session, host.baseURL.appendingPathComponent("nowhere"))
        #expect(nowhere.status == 404)
        #expect(nowhere.response.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
    }

    @Test func stateIsKeptPerSession() async throws {
        let host = try StubHost(openAPI: SpecFixtures.pets)
        let session = URLSession(configuration: host.sessionConfiguration())
        let pets = host.baseURL.appendingPathComponent("pets")
        let created = try await send(session, pets, method: "POST", headers: [
            "Content-Type": "application/json", "Authorization": "Bearer t", "X-Understudy-Session": "mine"], body: #"{"name":"Fido"}"#)
        #expect(created.status == 201)
        #expect(try await send(session, pets, headers: ["X-Understudy-Session": "mine"]).text.contains("Fido"))
        #expect(!(try await send(session, pets, headers: ["X-Understudy-Session": "theirs"]).text.contains("Fido")))
    }

    @Test func aDocumentThatCannotBeServedSaysWhere() {
        #expect { try StubHost(openAPI: ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"description": "x", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Missing"}}}}}}}}}"##) } throws: { error in
            (error as? StubDocumentError)?.description.contains("Missing") == true
        }
        #expect(throws: StubDocumentError.self) { try StubHost(openAPI: "not json") }
    }
}
