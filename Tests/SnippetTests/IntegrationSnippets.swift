import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

// The README's integration test runs for real: an in-process server, one rule, the real client.
// snippet: readme-integration-test
@Test func productsSurviveTwo503s() async throws {
    let server = try UnderstudyServer.start()                       // a free port, built-in data
    defer { server.stop() }
    try server.faults.add(.status(503), match: .init(path: "/products/1"), times: 2)
    let client = APIClient(baseURL: server.baseURL)                  // retries 503s with backoff
    let product = try await client.send(ProductEndpoints.product(id: 1))
    #expect(product.title == "Silk Veil Foundation")
    #expect(server.journal.entries(path: "/products/1").count == 3)  // two 503s, then the 200
}
// end
