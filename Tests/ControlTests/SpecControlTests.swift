import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyControl
import UnderstudyTestSupport

/// A served OpenAPI document steered through `UnderstudyControl`, against `understudy --spec` in a process of its
/// own: the typed `Prefer` on one request and on an operation, and the state per session.
@Suite(.blocksThreads) struct SpecControlTests {
    private func withSpec<T>(_ body: (ServerProcess) async throws -> T) async throws -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("control-spec-\(UUID().uuidString).json")
        try Data(SpecFixtures.pets.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await ServerProcess.with(["--spec", file.path], body)
    }

    private func status(_ server: ServerProcess, _ path: String, preference: SpecPreference? = nil, session: String? = nil,
                        method: String = "GET", body: String? = nil) async throws -> Int {
        try await send(server, path, preference: preference, session: session, method: method, body: body).status
    }

    private func send(_ server: ServerProcess, _ path: String, preference: SpecPreference? = nil, session: String? = nil,
                      method: String = "GET", body: String? = nil) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(path), timeoutInterval: 10)
        request.httpMethod = method
        request.specPreference = preference
        request.understudySession = session
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func theDocumentIsListedAndAnOperationAnswersAsPreferred() async throws {
        try await withSpec { server in
            let control = server.control
            #expect(try await control.health().servesSpec)
            let document = try await control.specDocument()
            #expect(document.title == "Pets")
            let getPet = try #require(document.operations.first { $0.id == "getPet" })
            #expect(getPet.method == "GET")
            #expect(getPet.path == "/pets/{petId}")
            #expect(getPet.preference == nil)
            #expect(try await status(server, "pets/1") == 200)

            let forced = try await control.prefer(.code(404), forOperation: "getPet")
            #expect(forced.preference == .code(404))
            #expect(try await status(server, "pets/1") == 404)
            // A request's own Prefer wins over the operation's.
            #expect(try await status(server, "pets/1", preference: .code(200)) == 200)
            try await control.clearPreference(forOperation: "getPet")
            #expect(try await status(server, "pets/1") == 200)
        }
    }

    @Test func mistakesAreTypedErrors() async throws {
        try await withSpec { server in
            let control = server.control
            await #expect { try await control.prefer(.code(404), forOperation: "nope") } throws: {
                ($0 as? ControlError)?.kind == .notFound
            }
            // myPets documents only a 200.
            await #expect { try await control.prefer(.code(418), forOperation: "myPets") } throws: {
                ($0 as? ControlError)?.kind == .badRequest && ($0 as? ControlError)?.message?.contains("418") == true
            }
        }
        try await ServerProcess.with { server in
            let health = try await server.control.health()
            #expect(!health.servesSpec)
            await #expect { try await server.control.specDocument() } throws: { ($0 as? ControlError)?.kind == .conflict }
        }
    }

    @Test func stateIsForgottenPerSession() async throws {
        try await withSpec { server in
            #expect(try await status(server, "pets", session: "a", method: "POST", body: #"{"name":"Fido"}"#) == 201)
            #expect(try await status(server, "pets", session: "b", method: "POST", body: #"{"name":"Rex"}"#) == 201)
            #expect(try await send(server, "pets", session: "a").text.contains("Fido"))
            try await server.control.resetSpecState(session: "a")
            #expect(!(try await send(server, "pets", session: "a").text.contains("Fido")))
            #expect(try await send(server, "pets", session: "b").text.contains("Rex"))
        }
    }

    @Test func thePreferHeaderIsReadAndWritten() {
        let preference = SpecPreference(code: 404, example: "lost", dynamic: true, seed: "7")
        #expect(preference.headerValue == "code=404, example=lost, dynamic=true, seed=7")
        #expect(SpecPreference(headerValue: preference.headerValue) == preference)
        #expect(SpecPreference(headerValue: "respond-async") == nil)
        var request = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        request.specPreference = .dynamic(seed: "42")
        #expect(request.value(forHTTPHeaderField: "Prefer") == "dynamic=true, seed=42")
        request.specPreference = nil
        #expect(request.value(forHTTPHeaderField: "Prefer") == nil)
    }
}
