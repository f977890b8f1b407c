import Foundation
import UnderstudyClient

/// DummyJSON's product and category endpoints, as request values.
public enum ProductEndpoints {
    /// `GET /products` with paging and sorting.
    public static func list(limit: Int? = nil, skip: Int? = nil, sortBy: String? = nil,
                            order: SortOrder? = nil) -> Endpoint<ProductList> {
        Endpoint(path: "products", queryItems: listQuery(limit: limit, skip: skip, sortBy: sortBy, order: order))
    }

    /// `GET /products?select=…`: only `id` and the selected keys, decoded as `Item`.
    ///
    /// - Parameters:
    ///   - fields: The top-level keys to keep; the server always adds `id`.
    ///   - type: A type with those fields (the full ``Product`` would not decode).
    ///   - limit: At most this many items (the server's default, 30, when nil; 0 for all).
    ///   - skip: Items to skip first.
    ///   - sortBy: The key to sort by.
    ///   - order: The sort order.
    public static func list<Item: Decodable & Sendable>(
        selecting fields: [String], as type: Item.Type, limit: Int? = nil, skip: Int? = nil,
        sortBy: String? = nil, order: SortOrder? = nil
    ) -> Endpoint<SelectedProductList<Item>> {
        Endpoint(path: "products", queryItems: listQuery(limit: limit, skip: skip, select: fields,
                                                             sortBy: sortBy, order: order))
    }

    /// `GET /products/{id}`.
    public static func product(id: Int) -> Endpoint<Product> {
        Endpoint(path: "products/\(id)")
    }

    /// `GET /products/search?q=` (title and description, case-insensitive).
    public static func search(_ query: String, limit: Int? = nil, skip: Int? = nil) -> Endpoint<ProductList> {
        Endpoint(path: "products/search",
                   queryItems: [URLQueryItem(name: "q", value: query)] + listQuery(limit: limit, skip: skip))
    }

    /// `GET /products/categories`: category objects.
    public static func categories() -> Endpoint<[Category]> {
        Endpoint(path: "products/categories")
    }

    /// `GET /products/category-list`: slugs only.
    public static func categoryList() -> Endpoint<[String]> {
        Endpoint(path: "products/category-list")
    }

    /// `GET /products/category/{slug}`; an unknown slug gives an empty list, not an error.
    public static func products(inCategory slug: String, limit: Int? = nil, skip: Int? = nil) -> Endpoint<ProductList> {
        Endpoint(path: "products/category/\(slug)", queryItems: listQuery(limit: limit, skip: skip))
    }

    /// `POST /products/add` (simulated: nothing is stored).
    public static func add(_ draft: ProductDraft) -> Endpoint<ProductUpdate> {
        Endpoint(path: "products/add", method: .post, body: .json(draft))
    }

    /// `PUT` (or `PATCH`) `/products/{id}` (simulated).
    public static func update(id: Int, with draft: ProductDraft, method: HTTPMethod = .put) -> Endpoint<ProductUpdate> {
        Endpoint(path: "products/\(id)", method: method, body: .json(draft))
    }

    /// `DELETE /products/{id}` (simulated).
    public static func delete(id: Int) -> Endpoint<DeletedProduct> {
        Endpoint(path: "products/\(id)", method: .delete)
    }

    static func listQuery(limit: Int? = nil, skip: Int? = nil, select: [String] = [], sortBy: String? = nil,
                          order: SortOrder? = nil) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let skip { items.append(URLQueryItem(name: "skip", value: String(skip))) }
        if !select.isEmpty { items.append(URLQueryItem(name: "select", value: select.joined(separator: ","))) }
        if let sortBy { items.append(URLQueryItem(name: "sortBy", value: sortBy)) }
        if let order { items.append(URLQueryItem(name: "order", value: order.rawValue)) }
        return items
    }
}
