import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// 4xx replies are the caller's mistake: one attempt, the server's own message surfaced.
@Suite(.timeLimit(.minutes(1))) struct ClientErrorStatusTests {
    @Test func unknownProductIs404WithTheServerMessage() async throws {
        try await withHarness { h in
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 999))
            }
            #expect(error?.kind == .httpStatus)
            #expect(error?.status == 404)
            #expect(error?.serverMessage == "Product with id '999' not found")
            #expect(error?.description.contains("Product with id '999' not found") == true)
            #expect(error?.attempts == 1)

            let journal = h.requests(to: "/products/999")
            #expect(journal.count == 1)
            #expect(journal.first?.status == 404)
            #expect(journal.first?.authorization == nil)
        }
    }

    @Test func invalidLimitIs400WithTheServerMessage() async throws {
        try await withHarness { h in
            let request = Endpoint<ProductList>(path: "products", queryItems: [URLQueryItem(name: "limit", value: "abc")])
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(request)
            }
            #expect(error?.kind == .httpStatus)
            #expect(error?.status == 400)
            #expect(error?.serverMessage == "Invalid 'limit' - must be a number")
            #expect(error?.attempts == 1)

            let journal = h.requests(to: "/products")
            #expect(journal.count == 1)
            #expect(journal.first?.query == "limit=abc")
            #expect(journal.first?.status == 400)
        }
    }
}
