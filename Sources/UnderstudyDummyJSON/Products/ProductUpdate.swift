/// The 11-field subset DummyJSON answers with for add (POST) and update (PUT/PATCH): `id` plus the editable
/// fields, each present only when sent (add) or known (update). It is not a full ``Product``.
public struct ProductUpdate: Codable, Sendable, Hashable {
    /// The product's id (195 for every add).
    public var id: Int
    /// The title.
    public var title: String?
    /// The price.
    public var price: Double?
    /// The discount in percent.
    public var discountPercentage: Double?
    /// Units in stock.
    public var stock: Int?
    /// The rating.
    public var rating: Double?
    /// Image URLs.
    public var images: [String]?
    /// The thumbnail URL.
    public var thumbnail: String?
    /// The description.
    public var description: String?
    /// The brand.
    public var brand: String?
    /// The category slug.
    public var category: String?

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(
        id: Int,
        title: String? = nil,
        price: Double? = nil,
        discountPercentage: Double? = nil,
        stock: Int? = nil,
        rating: Double? = nil,
        images: [String]? = nil,
        thumbnail: String? = nil,
        description: String? = nil,
        brand: String? = nil,
        category: String? = nil
    ) {
        self.id = id
        self.title = title
        self.price = price
        self.discountPercentage = discountPercentage
        self.stock = stock
        self.rating = rating
        self.images = images
        self.thumbnail = thumbnail
        self.description = description
        self.brand = brand
        self.category = category
    }
}

/// The fields to send when adding or updating a product; nil fields are left out of the JSON.
public struct ProductDraft: Codable, Sendable, Hashable {
    /// The title.
    public var title: String?
    /// The price.
    public var price: Double?
    /// The discount in percent.
    public var discountPercentage: Double?
    /// Units in stock.
    public var stock: Int?
    /// The rating.
    public var rating: Double?
    /// Image URLs.
    public var images: [String]?
    /// The thumbnail URL.
    public var thumbnail: String?
    /// The description.
    public var description: String?
    /// The brand.
    public var brand: String?
    /// The category slug.
    public var category: String?

    /// Creates a draft; every field is optional.
    public init(title: String? = nil, price: Double? = nil, discountPercentage: Double? = nil, stock: Int? = nil,
                rating: Double? = nil, images: [String]? = nil, thumbnail: String? = nil,
                description: String? = nil, brand: String? = nil, category: String? = nil) {
        self.title = title
        self.price = price
        self.discountPercentage = discountPercentage
        self.stock = stock
        self.rating = rating
        self.images = images
        self.thumbnail = thumbnail
        self.description = description
        self.brand = brand
        self.category = category
    }
}

/// What DELETE answers with: the full product plus the deletion flags.
public struct DeletedProduct: Decodable, Sendable, Hashable {
    /// The product as it was.
    public var product: Product
    /// Always true.
    public var isDeleted: Bool
    /// When, as an ISO-8601 string.
    public var deletedOn: String

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(product: Product, isDeleted: Bool, deletedOn: String) {
        self.product = product
        self.isDeleted = isDeleted
        self.deletedOn = deletedOn
    }

    private enum CodingKeys: String, CodingKey {
        case isDeleted, deletedOn
    }

    /// Decodes the product fields and the two flags from the same object.
    public init(from decoder: any Decoder) throws {
        product = try Product(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isDeleted = try container.decode(Bool.self, forKey: .isDeleted)
        deletedOn = try container.decode(String.self, forKey: .deletedOn)
    }
}
