import UnderstudyClient

extension ProductsClient {
    /// Answers from ``PreviewData`` without the network, paging, searching and filtering as the server does;
    /// an unknown id is a 404. Writes are echoed, as DummyJSON echoes them, and stored nowhere.
    public static let preview = ProductsClient(
        list: { limit, skip, _, _ throws(APIError) in page(PreviewData.products, limit: limit, skip: skip) },
        product: { id throws(APIError) in try find(id) },
        search: { query, limit, skip throws(APIError) in
            let needle = query.lowercased()
            let found = PreviewData.products.filter {
                $0.title.lowercased().contains(needle) || $0.description.lowercased().contains(needle)
            }
            return page(found, limit: limit, skip: skip)
        },
        categories: { () throws(APIError) in PreviewData.categories },
        categoryList: { () throws(APIError) in PreviewData.categories.map(\.slug) },
        productsInCategory: { slug, limit, skip throws(APIError) in
            page(PreviewData.products.filter { $0.category == slug.lowercased() }, limit: limit, skip: skip)
        },
        add: { draft throws(APIError) in updated(id: PreviewData.products.count + 1, with: draft) },
        update: { id, draft throws(APIError) in
            let product = try find(id)
            var echo = updated(id: id, with: draft)
            echo.title = echo.title ?? product.title
            echo.price = echo.price ?? product.price
            echo.category = echo.category ?? product.category
            return echo
        },
        delete: { id throws(APIError) in
            DeletedProduct(product: try find(id), isDeleted: true, deletedOn: "2025-01-01T00:00:00.000Z")
        }
    )

    /// DummyJSON's paging: a nil `limit` means 30 (the server's default) and 0 means all.
    private static func page(_ products: [Product], limit: Int?, skip: Int?) -> ProductList {
        let skip = max(0, skip ?? 0)
        let limit = limit.map { $0 == 0 ? products.count : $0 } ?? 30
        let slice = Array(products.dropFirst(skip).prefix(max(0, limit)))
        return ProductList(products: slice, total: products.count, skip: skip, limit: slice.count)
    }

    private static func find(_ id: Int) throws(APIError) -> Product {
        guard let product = PreviewData.products.first(where: { $0.id == id }) else {
            var error = APIError(.httpStatus, underlying: "ProductsClient.preview has no product \(id)")
            error.status = 404
            error.serverMessage = "Product with id '\(id)' not found"
            throw error
        }
        return product
    }

    private static func updated(id: Int, with draft: ProductDraft) -> ProductUpdate {
        ProductUpdate(id: id, title: draft.title, price: draft.price, discountPercentage: draft.discountPercentage,
                      stock: draft.stock, rating: draft.rating, images: draft.images, thumbnail: draft.thumbnail,
                      description: draft.description, brand: draft.brand, category: draft.category)
    }
}
