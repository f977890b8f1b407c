/// A category as `/products/categories` lists it.
public struct Category: Codable, Sendable, Hashable {
    /// The slug, e.g. `home-decoration`.
    public var slug: String
    /// The display name, e.g. `Home Decoration`.
    public var name: String
    /// The listing URL.
    public var url: String

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(slug: String, name: String, url: String) {
        self.slug = slug
        self.name = name
        self.url = url
    }
}
