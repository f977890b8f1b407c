import Testing
@testable import UnderstudyClient

private struct NumberPage: OffsetPage {
    var items: [Int]
    var total: Int
}

@Suite struct PaginatorTests {
    private static func numbers(total: Int) -> Paginator<NumberPage>.Fetch {
        { skip, limit throws(APIError) in
            NumberPage(items: Array(skip..<min(skip + limit, total)), total: total)
        }
    }

    @Test(arguments: [(0, 0), (1, 1), (7, 3), (9, 3), (10, 4)])
    func stopsAtTotal(total: Int, pages: Int) async throws {
        var seen = 0
        var items: [Int] = []
        for try await page in Paginator(pageSize: 3, fetch: Self.numbers(total: total)) {
            seen += 1
            items += page.items
        }
        #expect(seen == pages)
        #expect(items == Array(0..<total))
    }

    @Test func anEmptyPageEndsEvenIfTotalSaysMore() async throws {
        let paginator = Paginator<NumberPage>(pageSize: 5) { skip, _ throws(APIError) in
            NumberPage(items: skip == 0 ? [1, 2] : [], total: 100)
        }
        #expect(try await paginator.allItems() == [1, 2])
    }

    @Test func errorsPassThroughAndEndIteration() async throws {
        let paginator = Paginator<NumberPage>(pageSize: 5) { _, _ throws(APIError) in
            throw APIError(.serverError)
        }
        let error = await #expect(throws: APIError.self) { try await paginator.allItems() }
        #expect(error?.kind == .serverError)
    }

    @Test func cancellationIsCheckedBetweenPages() async throws {
        let paginator = Paginator(pageSize: 2, fetch: Self.numbers(total: 100))
        let task = Task {
            var pages = 0
            for try await _ in paginator {
                pages += 1
                if pages == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return pages
        }
        let result = await task.result
        guard case .failure(let error as APIError) = result else {
            Issue.record("expected cancellation, got \(result)")
            return
        }
        #expect(error.kind == .cancelled)
    }
}
