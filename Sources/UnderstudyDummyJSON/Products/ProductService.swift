import UnderstudyClient

/// DummyJSON's products and categories, as a protocol so views and tests can swap in a fake.
public protocol ProductService: Sendable {
    /// A page of products (for `select`, send ``ProductEndpoints/list(selecting:as:limit:skip:sortBy:order:)``).
    func list(limit: Int?, skip: Int?, sortBy: String?, order: SortOrder?) async throws(APIError) -> ProductList
    /// One product; `APIError/Kind/httpStatus` 404 when unknown.
    func product(id: Int) async throws(APIError) -> Product
    /// Products whose title or description contains `query`.
    func search(_ query: String, limit: Int?, skip: Int?) async throws(APIError) -> ProductList
    /// Every category object.
    func categories() async throws(APIError) -> [Category]
    /// Every category slug.
    func categoryList() async throws(APIError) -> [String]
    /// A page of one category's products.
    func products(inCategory slug: String, limit: Int?, skip: Int?) async throws(APIError) -> ProductList
    /// Simulates adding a product.
    func add(_ draft: ProductDraft) async throws(APIError) -> ProductUpdate
    /// Simulates updating a product.
    func update(id: Int, with draft: ProductDraft) async throws(APIError) -> ProductUpdate
    /// Simulates deleting a product.
    func delete(id: Int) async throws(APIError) -> DeletedProduct
}

extension ProductService {
    /// The first page with the server's defaults (30 products).
    public func list() async throws(APIError) -> ProductList {
        try await list(limit: nil, skip: nil, sortBy: nil, order: nil)
    }

    /// Every product, page by page.
    ///
    /// - Parameters:
    ///   - pageSize: Products per request.
    ///   - sortBy: The sort field.
    ///   - order: The sort direction.
    /// - Returns: A paginator; nothing is fetched until it is iterated.
    public func pages(pageSize: Int = 30, sortBy: String? = nil, order: SortOrder? = nil) -> Paginator<ProductList> {
        Paginator(pageSize: pageSize) { skip, limit throws(APIError) in
            try await list(limit: limit, skip: skip, sortBy: sortBy, order: order)
        }
    }
}
