import UnderstudyJSON

/// A category as `/products/categories` lists it.
struct ProductCategory: Sendable, Equatable {
    let slug: String

    /// "home-decoration" becomes "Home Decoration", as DummyJSON capitalises each `-`-separated word.
    var name: String {
        slug.split(separator: "-", omittingEmptySubsequences: false)
            .map { word in word.prefix(1).uppercased() + word.dropFirst() }
            .joined(separator: " ")
    }

    var url: String { "https://dummyjson.com/products/category/\(slug)" }

    var json: JSONValue {
        .object(JSONObject([
            .init(key: "slug", value: .string(slug)),
            .init(key: "name", value: .string(name)),
            .init(key: "url", value: .string(url)),
        ]))
    }
}
