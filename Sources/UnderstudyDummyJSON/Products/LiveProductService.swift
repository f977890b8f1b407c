import UnderstudyClient

/// ``ProductService`` over an ``APIClient``.
public struct LiveProductService: ProductService {
    /// The client requests go through.
    public let client: APIClient

    /// Creates the service.
    public init(client: APIClient) {
        self.client = client
    }

    public func list(limit: Int?, skip: Int?, sortBy: String?, order: SortOrder?) async throws(APIError) -> ProductList {
        try await client.send(ProductEndpoints.list(limit: limit, skip: skip, sortBy: sortBy, order: order))
    }

    public func product(id: Int) async throws(APIError) -> Product {
        try await client.send(ProductEndpoints.product(id: id))
    }

    public func search(_ query: String, limit: Int?, skip: Int?) async throws(APIError) -> ProductList {
        try await client.send(ProductEndpoints.search(query, limit: limit, skip: skip))
    }

    public func categories() async throws(APIError) -> [Category] {
        try await client.send(ProductEndpoints.categories())
    }

    public func categoryList() async throws(APIError) -> [String] {
        try await client.send(ProductEndpoints.categoryList())
    }

    public func products(inCategory slug: String, limit: Int?, skip: Int?) async throws(APIError) -> ProductList {
        try await client.send(ProductEndpoints.products(inCategory: slug, limit: limit, skip: skip))
    }

    public func add(_ draft: ProductDraft) async throws(APIError) -> ProductUpdate {
        try await client.send(ProductEndpoints.add(draft))
    }

    public func update(id: Int, with draft: ProductDraft) async throws(APIError) -> ProductUpdate {
        try await client.send(ProductEndpoints.update(id: id, with: draft))
    }

    public func delete(id: Int) async throws(APIError) -> DeletedProduct {
        try await client.send(ProductEndpoints.delete(id: id))
    }
}
