import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// A 2xx is only a success if its body decodes; a body that does not is final (never retried).
@Suite(.timeLimit(.minutes(1))) struct ResponseDecodingTests {
    @Test func valid2xxDecodesInOneAttempt() async throws {
        try await withHarness { h in
            let reply = try await h.client.sendWithResponse(ProductEndpoints.product(id: 1))
            #expect(reply.value.id == 1)
            #expect(reply.value.price > 0)
            #expect(reply.response.statusCode == 200)
            #expect(reply.attempts == 1)

            let journal = h.requests(to: "/products/1")
            #expect(journal.count == 1)
            #expect(journal.first?.status == 200)
            #expect(journal.first?.authorization == nil, "a public endpoint carries no token")
            #expect(journal.first?.headers["Accept"] == "application/json")
        }
    }

    @Test func malformedBodyIsDecodingFailedWithoutRetry() async throws {
        try await withHarness { h in
            try h.fault("malformed", on: "/products/1")
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(error?.kind == .decodingFailed)
            #expect(error?.attempts == 1)
            #expect(error?.decoding?.type == "Product")
            #expect(error?.body?.isEmpty == false, "the undecodable body is kept for diagnosis")

            let journal = h.requests(to: "/products/1")
            #expect(journal.count == 1, "a decoding failure is not transient: one attempt only")
            #expect(journal.first?.status == 200)
            #expect(journal.first?.fault == "malformed")
            #expect(journal.first?.authorization == nil)
        }
    }

    @Test func wrongShapeNamesTheField() async throws {
        try await withHarness { h in
            try h.fault("malformed=shape", on: "/products/1")
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.product(id: 1))
            }
            #expect(error?.kind == .decodingFailed)
            #expect(error?.attempts == 1)
            #expect(error?.decoding?.codingPath.contains("price") == true)
            #expect(error?.description.contains("price") == true)

            let journal = h.requests(to: "/products/1")
            #expect(journal.count == 1)
            #expect(journal.first?.fault == "malformed=shape")
        }
    }

    @Test func wrongShapeInAListNamesTheElement() async throws {
        try await withHarness { h in
            try h.fault("malformed=shape", on: "/products")
            let error = await #expect(throws: APIError.self) {
                try await h.client.send(ProductEndpoints.list(limit: 3))
            }
            #expect(error?.kind == .decodingFailed)
            #expect(error?.decoding?.codingPath == "products[0].price")
            #expect(h.requests(to: "/products").count == 1)
        }
    }
}
