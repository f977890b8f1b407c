import Foundation
import UnderstudyClient
import UnderstudyDummyJSON
import UnderstudyTesting

// Snippets of UnderstudyTesting's articles.

func snippetStubHost() async throws {
    // snippet: stub-host-contract-cases
    // The cases ship with UnderstudyTesting (Bundle.module): load them by name, from any package.
    let host = try StubHost(contractCasesNamed: "products-by-id", "products-by-id-not-found-195", "auth-me-missing-token")
    let client = APIClient(baseURL: host.baseURL, sessionConfiguration: host.sessionConfiguration())
    let product = try await client.send(ProductEndpoints.product(id: 1))     // Silk Veil Foundation
    // product(id: 195) throws APIError: status 404, serverMessage "Product with id '195' not found"
    // end
    _ = product
}

func snippetStubHostRecording() async throws {
    // snippet: stub-host-recording
    // A directory written by `understudy --upstream URL --record Recordings/shop`, checked in beside the tests.
    let host = try StubHost(recording: URL(fileURLWithPath: "Recordings/shop"), ignoredQueryParameters: ["_ts"])
    let client = APIClient(baseURL: host.baseURL, sessionConfiguration: host.sessionConfiguration())
    let product = try await client.send(ProductEndpoints.product(id: 1))     // the recorded answer, or APIError 502
    // end
    _ = product
}
