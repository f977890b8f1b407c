import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyControl
import UnderstudyTesting

// Snippets of "Serve your OpenAPI document". The Swift Testing suite runs: it is cheap and needs no outside server.

func snippetSpecInProcess() throws {
    // snippet: spec-in-process
    var configuration = UnderstudyServer.Configuration()
    configuration.spec = try OpenAPISpec(contentsOf: "Sources/PetClient/openapi.yaml")
    let server = try UnderstudyServer.start(configuration)
    // end
    server.stop()
}

// snippet: spec-swift-testing
@Suite struct PetstoreBackendTests {
    let server: UnderstudyServer

    init() throws {
        var configuration = UnderstudyServer.Configuration()
        configuration.spec = try OpenAPISpec(contentsOf: "fixtures/openapi/petstore.yaml")
        server = try UnderstudyServer.start(configuration)
    }

    @Test func anOutageIsTheDocumentsOwn503() async throws {
        defer { server.stop() }
        try server.faults.add(.status(503, retryAfter: .seconds(30)), match: .init(path: "/pets"))
        let request = URLRequest(url: server.baseURL.appending(path: "pets"), timeoutInterval: 10)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After") == "30")
        #expect(String(decoding: data, as: UTF8.self).contains(#""code":"unavailable""#))   // the document's Error
    }

    @Test func aNamelessPetIsThe422TheDocumentDescribes() async throws {
        defer { server.stop() }
        var request = URLRequest(url: server.baseURL.appending(path: "pets"), timeoutInterval: 10)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer test", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"name": ""}"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 422)
        #expect(String(decoding: data, as: UTF8.self).contains(#""code":"invalid_pet""#))
    }
}
// end

func snippetSpecPreference(control: ControlClient, baseURL: URL) async throws {
    // snippet: spec-preference
    var request = URLRequest(url: baseURL.appending(path: "pets/1"))
    request.specPreference = .example("tom")                       // Prefer: example=tom, this request only
    try await control.prefer(.code(503), forOperation: "listPets")  // every GET /pets, until cleared
    try await control.resetSpecState(session: "checkout-test")      // what that session's requests stored
    // end
    _ = request
}

func snippetSpecStubHost(documentURL: URL) throws {
    // snippet: spec-stub-host
    let host = try StubHost(openAPI: String(decoding: try Data(contentsOf: documentURL), as: UTF8.self))
    let session = URLSession(configuration: host.sessionConfiguration())   // answered in process, no socket
    // end
    _ = session
}

func snippetContractReport(control: ControlClient) async throws {
    // snippet: contract-report
    let report = try await control.contractReport()
    #expect(report.violations == 0, "\(report.recent.flatMap(\.violations))")
    // end
}
