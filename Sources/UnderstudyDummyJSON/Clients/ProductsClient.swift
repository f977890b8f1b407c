import UnderstudyClient

/// DummyJSON's products as a struct of closures: the lightweight alternative to ``ProductService``.
///
/// Each member mirrors a ``ProductService`` requirement. Pick an implementation per context: ``live(_:)`` over an
/// `APIClient`, ``preview`` for SwiftUI previews (built-in ``PreviewData``, no network) and ``failing`` for tests
/// that must not touch the network; override one closure on a copy to fake a single call.
///
/// ```swift
/// var products = ProductsClient.failing
/// products.product = { id throws(APIError) in PreviewData.products[0] }
/// ```
public struct ProductsClient: Sendable {
    /// A page of products: limit, skip, sort field and direction (nil for the server's defaults).
    public var list: @Sendable (_ limit: Int?, _ skip: Int?, _ sortBy: String?, _ order: SortOrder?) async throws(APIError) -> ProductList
    /// One product by id; `APIError/Kind/httpStatus` 404 when unknown.
    public var product: @Sendable (_ id: Int) async throws(APIError) -> Product
    /// Products whose title or description contains the query, with limit and skip.
    public var search: @Sendable (_ query: String, _ limit: Int?, _ skip: Int?) async throws(APIError) -> ProductList
    /// Every category object.
    public var categories: @Sendable () async throws(APIError) -> [Category]
    /// Every category slug.
    public var categoryList: @Sendable () async throws(APIError) -> [String]
    /// A page of one category's products: slug, limit and skip.
    public var productsInCategory: @Sendable (_ slug: String, _ limit: Int?, _ skip: Int?) async throws(APIError) -> ProductList
    /// Simulates adding a product.
    public var add: @Sendable (_ draft: ProductDraft) async throws(APIError) -> ProductUpdate
    /// Simulates updating a product.
    public var update: @Sendable (_ id: Int, _ draft: ProductDraft) async throws(APIError) -> ProductUpdate
    /// Simulates deleting a product.
    public var delete: @Sendable (_ id: Int) async throws(APIError) -> DeletedProduct

    /// Creates a client from its closures.
    public init(
        list: @escaping @Sendable (Int?, Int?, String?, SortOrder?) async throws(APIError) -> ProductList,
        product: @escaping @Sendable (Int) async throws(APIError) -> Product,
        search: @escaping @Sendable (String, Int?, Int?) async throws(APIError) -> ProductList,
        categories: @escaping @Sendable () async throws(APIError) -> [Category],
        categoryList: @escaping @Sendable () async throws(APIError) -> [String],
        productsInCategory: @escaping @Sendable (String, Int?, Int?) async throws(APIError) -> ProductList,
        add: @escaping @Sendable (ProductDraft) async throws(APIError) -> ProductUpdate,
        update: @escaping @Sendable (Int, ProductDraft) async throws(APIError) -> ProductUpdate,
        delete: @escaping @Sendable (Int) async throws(APIError) -> DeletedProduct
    ) {
        self.list = list
        self.product = product
        self.search = search
        self.categories = categories
        self.categoryList = categoryList
        self.productsInCategory = productsInCategory
        self.add = add
        self.update = update
        self.delete = delete
    }

    /// A client whose every closure calls `service`.
    ///
    /// - Parameter service: Any ``ProductService``, e.g. a ``LiveProductService`` or an app's fake.
    public init(_ service: some ProductService) {
        self.init(
            list: { limit, skip, sortBy, order throws(APIError) in
                try await service.list(limit: limit, skip: skip, sortBy: sortBy, order: order)
            },
            product: { id throws(APIError) in try await service.product(id: id) },
            search: { query, limit, skip throws(APIError) in try await service.search(query, limit: limit, skip: skip) },
            categories: { () throws(APIError) in try await service.categories() },
            categoryList: { () throws(APIError) in try await service.categoryList() },
            productsInCategory: { slug, limit, skip throws(APIError) in
                try await service.products(inCategory: slug, limit: limit, skip: skip)
            },
            add: { draft throws(APIError) in try await service.add(draft) },
            update: { id, draft throws(APIError) in try await service.update(id: id, with: draft) },
            delete: { id throws(APIError) in try await service.delete(id: id) }
        )
    }

    /// The client over DummyJSON's HTTP API, as ``LiveProductService`` sends it.
    ///
    /// - Parameter client: The client requests go through.
    /// - Returns: The live client.
    public static func live(_ client: APIClient) -> ProductsClient {
        ProductsClient(LiveProductService(client: client))
    }

    /// Every call throws `APIError/Kind/unimplemented` naming the closure, e.g. `ProductsClient.product`; for
    /// tests that must not reach the network. Replace the closures a test expects on a copy.
    public static let failing = ProductsClient(
        list: { _, _, _, _ throws(APIError) in throw unimplemented("list") },
        product: { _ throws(APIError) in throw unimplemented("product") },
        search: { _, _, _ throws(APIError) in throw unimplemented("search") },
        categories: { () throws(APIError) in throw unimplemented("categories") },
        categoryList: { () throws(APIError) in throw unimplemented("categoryList") },
        productsInCategory: { _, _, _ throws(APIError) in throw unimplemented("productsInCategory") },
        add: { _ throws(APIError) in throw unimplemented("add") },
        update: { _, _ throws(APIError) in throw unimplemented("update") },
        delete: { _ throws(APIError) in throw unimplemented("delete") }
    )

    private static func unimplemented(_ name: String) -> APIError {
        APIError(.unimplemented, underlying: "ProductsClient.\(name) is unimplemented (ProductsClient.failing)")
    }
}
