import UnderstudyJSON

/// The products' own filters (search over title and description, category by slug) in front of the shared list
/// pipeline (`RecordListing`).
struct ProductListing {
    let catalog: Catalog

    /// The `{"products", "total", "skip", "limit"}` wrapper for the products at `matches` (catalogue order).
    func body(matching matches: some RandomAccessCollection<Int>, query: ListQuery) -> [UInt8] {
        RecordListing.body("products", catalog.products, matching: matches, query: query,
                           columns: catalog.productColumns)
    }

    /// Indices of products whose title or description contains `search` (all of them when it is empty).
    func search(_ search: String) -> [Int] {
        guard !search.isEmpty else { return Array(catalog.products.indices) }
        return catalog.productSearch.items(containing: Array(search.utf8))
    }

    /// Indices of products in the category `slug`, matched case-insensitively.
    func category(_ slug: String) -> [Int] {
        let key = slug.lowercased()
        return catalog.products.indices.filter { catalog.products[$0].categoryKey == key }
    }
}
