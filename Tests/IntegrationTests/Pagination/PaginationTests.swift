import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// Paging through the whole catalogue, one request per page, stopping at `total` or on cancellation.
@Suite(.timeLimit(.minutes(1))) struct PaginationTests {
    @Test func allProductsAtThirtyAPageTakeSevenRequests() async throws {
        try await withHarness { h in
            let products = try await LiveProductService(client: h.client).pages(pageSize: 30).allItems()
            #expect(products.count == 194)
            #expect(products.map(\.id) == Array(1...194), "in order, no gap, no repeat")

            let journal = h.requests(to: "/products")
            #expect(journal.count == 7)
            #expect(journal.map(\.query) == stride(from: 0, to: 194, by: 30).map { "limit=30&skip=\($0)" })
            #expect(journal.allSatisfy { $0.status == 200 && $0.authorization == nil })
        }
    }

    @Test func aFailedPageIsRetriedWithoutRepeatingOthers() async throws {
        try await withHarness { h in
            try h.fault("status=503", on: "/products", times: 1, after: 2)
            let products = try await LiveProductService(client: h.client).pages(pageSize: 30).allItems()
            #expect(products.count == 194)
            let journal = h.requests(to: "/products")
            #expect(journal.count == 8, "seven pages plus one retry of the third")
            #expect(journal.map(\.status) == [200, 200, 503, 200, 200, 200, 200, 200])
        }
    }

    @Test func cancelledAfterTwoPagesSendsTwoRequests() async throws {
        try await withHarness { h in
            let pages = LiveProductService(client: h.client).pages(pageSize: 30)
            let task = Task { () -> (pages: Int, error: APIError?) in
                var seen = 0
                do {
                    for try await _ in pages {
                        seen += 1
                        if seen == 2 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                    return (seen, nil)
                } catch {
                    return (seen, APIError.classify(error))
                }
            }
            let outcome = await task.value
            #expect(outcome.pages == 2)
            #expect(outcome.error?.kind == .cancelled)

            let journal = await h.settledRequests(to: "/products", count: 2)
            #expect(journal.count == 2)
            #expect(journal.map(\.query) == ["limit=30&skip=0", "limit=30&skip=30"])
        }
    }
}
