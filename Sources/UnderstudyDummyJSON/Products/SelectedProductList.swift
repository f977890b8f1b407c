import UnderstudyClient

/// A page of products trimmed by `select`: DummyJSON's list wrapper around a type of the caller's own.
///
/// `select=title,price` returns only `id` and those keys, so the full ``Product`` cannot decode it; declare the
/// fields you asked for instead:
///
/// ```swift
/// struct Price: Decodable, Sendable { let id: Int; let title: String; let price: Double }
/// let page = try await client.send(ProductEndpoints.list(selecting: ["title", "price"], as: Price.self))
/// ```
public struct SelectedProductList<Item: Decodable & Sendable>: Decodable, Sendable, OffsetPage {
    /// The trimmed products on this page.
    public var products: [Item]
    /// Matches before skip and limit.
    public var total: Int
    /// The skip that was applied.
    public var skip: Int
    /// The number of products actually returned.
    public var limit: Int

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(products: [Item], total: Int, skip: Int, limit: Int) {
        self.products = products
        self.total = total
        self.skip = skip
        self.limit = limit
    }

    /// The products, for `Paginator`.
    public var items: [Item] { products }
}
