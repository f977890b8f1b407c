import UnderstudyClient

/// ``ProductService`` over an `APIClient`.
public struct LiveProductService: ProductService {
    /// The client requests go through.
    public let client: APIClient

    /// Creates the service.
    public init(client: APIClient) {
        self.client = client
    }

    /// `GET /products` with the paging and sort given.
    public func list(limit: Int?, skip: Int?, sortBy: String?, order: SortOrder?) async throws(APIError) -> ProductList {
        try await client.send(ProductEndpoints.list(limit: limit, skip: skip, sortBy: sortBy, order: order))
    }

    /// `GET /products/{id}`.
    public func product(id: Int) async throws(APIError) -> Product {
        try await client.send(ProductEndpoints.product(id: id))
    }

    /// `GET /products/search?q=…`.
    public func search(_ query: String, limit: Int?, skip: Int?) async throws(APIError) -> ProductList {
        try await client.send(ProductEndpoints.search(query, limit: limit, skip: skip))
    }

    /// `GET /products/categories`.
    public func categories() async throws(APIError) -> [Category] {
        try await client.send(ProductEndpoints.categories())
    }

    /// `GET /products/category-list`.
    public func categoryList() async throws(APIError) -> [String] {
        try await client.send(ProductEndpoints.categoryList())
    }

    /// `GET /products/{id}`.
    public func products(inCategory slug: String, limit: Int?, skip: Int?) async throws(APIError) -> ProductList {
        try await client.send(ProductEndpoints.products(inCategory: slug, limit: limit, skip: skip))
    }

    /// `POST /products/add`; the server echoes the product without storing it.
    public func add(_ draft: ProductDraft) async throws(APIError) -> ProductUpdate {
        try await client.send(ProductEndpoints.add(draft))
    }

    /// `PUT /products/{id}`; the server echoes the merge without storing it.
    public func update(id: Int, with draft: ProductDraft) async throws(APIError) -> ProductUpdate {
        try await client.send(ProductEndpoints.update(id: id, with: draft))
    }

    /// `DELETE /products/{id}`; the server answers as if deleted.
    public func delete(id: Int) async throws(APIError) -> DeletedProduct {
        try await client.send(ProductEndpoints.delete(id: id))
    }
}
