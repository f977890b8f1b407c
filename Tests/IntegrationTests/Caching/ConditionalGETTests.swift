import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// ``ETagCache`` against the real server: 304s on the wire, faults never stored, one entry per `Authorization`.
@Suite struct ConditionalGETTests {
    @Test func aSecondGETIsA304WithTheSameValue() async throws {
        let cache = ETagCache()
        try await withHarness(etagCache: cache) { h in
            let first = try await h.client.sendWithResponse(ProductEndpoints.product(id: 1))
            let second = try await h.client.sendWithResponse(ProductEndpoints.product(id: 1))
            #expect(!first.isRevalidated)
            #expect(second.isRevalidated)
            #expect(second.value == first.value)
            let journal = h.requests(to: "/products/1")
            #expect(journal.map(\.status) == [200, 304])
            let etag = try #require(first.response.value(forHTTPHeaderField: "ETag"))
            #expect(journal.first?.headers["If-None-Match"] == nil)
            #expect(journal.last?.headers["If-None-Match"] == etag)
        }
    }

    @Test(arguments: ["malformed=shape", "status=503"])
    func aFaultedReplyIsNeverStored(fault: String) async throws {
        let cache = ETagCache()
        try await withHarness(retryPolicy: .never, etagCache: cache) { h in
            var faulted = ProductEndpoints.product(id: 1)
            faulted.headers["X-Understudy-Fault"] = fault
            _ = await outcome { () throws(APIError) in try await h.client.send(faulted) }
            #expect(cache.count == 0)
            let clean = try await h.client.sendWithResponse(ProductEndpoints.product(id: 1))
            #expect(!clean.isRevalidated)
            let journal = h.requests(to: "/products/1")
            #expect(journal.count == 2)
            #expect(journal.allSatisfy { $0.headers["If-None-Match"] == nil })
            #expect(journal.last?.status == 200)
            #expect(cache.count == 1)
        }
    }

    @Test func eachAuthorizationHasItsOwnEntry() async throws {
        let cache = ETagCache()
        try await withHarness(etagCache: cache) { h in
            var ann = ProductEndpoints.product(id: 1)
            ann.headers["Authorization"] = "Bearer ann"
            var bob = ProductEndpoints.product(id: 1)
            bob.headers["Authorization"] = "Bearer bob"
            _ = try await h.client.send(ann)
            let bobsFirst = try await h.client.sendWithResponse(bob)
            let annsSecond = try await h.client.sendWithResponse(ann)
            #expect(!bobsFirst.isRevalidated)
            #expect(annsSecond.isRevalidated)
            #expect(cache.count == 2)
            let journal = h.requests(to: "/products/1")
            #expect(journal.map(\.status) == [200, 200, 304])
            #expect(journal.map(\.authorization) == ["Bearer ann", "Bearer bob", "Bearer ann"])
            #expect(journal[1].headers["If-None-Match"] == nil)
        }
    }
}
