import UnderstudyClient

/// DummyJSON's list wrapper: a page of products and where it sits in the whole listing.
public struct ProductList: Codable, Sendable, Hashable, OffsetPage {
    /// The products on this page.
    public var products: [Product]
    /// Matches before skip and limit.
    public var total: Int
    /// The skip that was applied.
    public var skip: Int
    /// The number of products actually returned (not the limit asked for).
    public var limit: Int

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(products: [Product], total: Int, skip: Int, limit: Int) {
        self.products = products
        self.total = total
        self.skip = skip
        self.limit = limit
    }

    /// The products, for `Paginator`.
    public var items: [Product] { products }
}
