/// Pages through a skip/limit listing as an `AsyncSequence`, stopping at `total`.
///
/// Each page advances `skip` by the number of items actually returned (DummyJSON's `limit` echo is that count),
/// and iteration stops at `total`, at an empty page, or with ``APIError/Kind/cancelled`` if the task is
/// cancelled between pages.
///
/// ```swift
/// for try await page in products.pages(pageSize: 50) {
///     show(page.products)
/// }
/// ```
public struct Paginator<Page: OffsetPage>: AsyncSequence, Sendable {
    /// Fetches one page.
    public typealias Fetch = @Sendable (_ skip: Int, _ limit: Int) async throws(APIError) -> Page

    /// A page.
    public typealias Element = Page

    private let pageSize: Int
    private let start: Int
    private let fetch: Fetch

    /// Creates a paginator.
    ///
    /// - Parameters:
    ///   - pageSize: The `limit` to ask for; at least 1 (0 would mean "everything" to DummyJSON).
    ///   - start: The first `skip`.
    ///   - fetch: Fetches the page at `skip` with `limit`.
    public init(pageSize: Int, start: Int = 0, fetch: @escaping Fetch) {
        self.pageSize = Swift.max(1, pageSize)
        self.start = Swift.max(0, start)
        self.fetch = fetch
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pageSize: pageSize, skip: start, fetch: fetch)
    }

    /// Fetches pages on demand; every error it throws is an ``APIError``.
    public struct Iterator: AsyncIteratorProtocol {
        let pageSize: Int
        var skip: Int
        let fetch: Fetch
        var finished = false

        /// The next page, or nil when the listing is exhausted.
        public mutating func next() async throws -> Page? {
            guard !finished else { return nil }
            if Task.isCancelled {
                finished = true
                throw APIError(.cancelled, underlying: "cancelled between pages")
            }
            let page: Page
            do {
                page = try await fetch(skip, pageSize)
            } catch {
                finished = true
                throw error
            }
            skip += page.items.count
            if page.items.isEmpty || skip >= page.total { finished = true }
            return page.items.isEmpty ? nil : page
        }
    }
}

extension Paginator {
    /// Every item of every page, in order.
    ///
    /// - Returns: The concatenated items.
    /// - Throws: ``APIError``.
    public func allItems() async throws(APIError) -> [Page.Item] {
        var items: [Page.Item] = []
        do {
            for try await page in self { items += page.items }
        } catch {
            throw APIError.classify(error)
        }
        return items
    }
}
