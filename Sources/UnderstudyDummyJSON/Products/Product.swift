/// A DummyJSON product, every field as served.
///
/// Prices and percentages are `Double` (DummyJSON's are fractional, and a few are written as integers); `brand`
/// is absent for whole categories; dates stay `String` because they carry milliseconds (`.iso8601` rejects them).
public struct Product: Codable, Sendable, Hashable, Identifiable {
    /// A product's size in centimetres.
    public struct Dimensions: Codable, Sendable, Hashable {
        /// The width.
        public var width: Double
        /// The height.
        public var height: Double
        /// The depth.
        public var depth: Double

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(width: Double, height: Double, depth: Double) {
            self.width = width
            self.height = height
            self.depth = depth
        }
    }

    /// A customer review.
    public struct Review: Codable, Sendable, Hashable {
        /// 1 to 5.
        public var rating: Int
        /// The text.
        public var comment: String
        /// ISO-8601 with milliseconds, e.g. `2025-04-30T09:41:02.053Z`.
        public var date: String
        /// The reviewer's name.
        public var reviewerName: String
        /// The reviewer's address.
        public var reviewerEmail: String

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(rating: Int, comment: String, date: String, reviewerName: String, reviewerEmail: String) {
            self.rating = rating
            self.comment = comment
            self.date = date
            self.reviewerName = reviewerName
            self.reviewerEmail = reviewerEmail
        }
    }

    /// Bookkeeping fields.
    public struct Meta: Codable, Sendable, Hashable {
        /// ISO-8601 with milliseconds.
        public var createdAt: String
        /// ISO-8601 with milliseconds.
        public var updatedAt: String
        /// A 13-digit string.
        public var barcode: String
        /// A URL string.
        public var qrCode: String

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(createdAt: String, updatedAt: String, barcode: String, qrCode: String) {
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.barcode = barcode
            self.qrCode = qrCode
        }
    }

    /// 1…194 in the standard data.
    public var id: Int
    /// The title.
    public var title: String
    /// The description.
    public var description: String
    /// The category slug.
    public var category: String
    /// The price; always fractional in the data.
    public var price: Double
    /// The discount in percent.
    public var discountPercentage: Double
    /// The rating, 0…5.
    public var rating: Double
    /// Units in stock.
    public var stock: Int
    /// Lowercase tags.
    public var tags: [String]
    /// The brand; absent for groceries, furniture accessories and several other categories.
    public var brand: String?
    /// The stock-keeping unit, e.g. `BEA-ESS-ESS-001`.
    public var sku: String
    /// The weight.
    public var weight: Int
    /// The dimensions.
    public var dimensions: Dimensions
    /// E.g. "1 year warranty".
    public var warrantyInformation: String
    /// E.g. "Ships in 1 week".
    public var shippingInformation: String
    /// "In Stock", "Low Stock" or "Out of Stock".
    public var availabilityStatus: String
    /// Reviews (three in the standard data).
    public var reviews: [Review]
    /// E.g. "30 days return policy".
    public var returnPolicy: String
    /// The smallest order.
    public var minimumOrderQuantity: Int
    /// Bookkeeping.
    public var meta: Meta
    /// Image URLs.
    public var images: [String]
    /// The thumbnail URL.
    public var thumbnail: String

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(
        id: Int,
        title: String,
        description: String,
        category: String,
        price: Double,
        discountPercentage: Double,
        rating: Double,
        stock: Int,
        tags: [String],
        brand: String? = nil,
        sku: String,
        weight: Int,
        dimensions: Dimensions,
        warrantyInformation: String,
        shippingInformation: String,
        availabilityStatus: String,
        reviews: [Review],
        returnPolicy: String,
        minimumOrderQuantity: Int,
        meta: Meta,
        images: [String],
        thumbnail: String
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.discountPercentage = discountPercentage
        self.rating = rating
        self.stock = stock
        self.tags = tags
        self.brand = brand
        self.sku = sku
        self.weight = weight
        self.dimensions = dimensions
        self.warrantyInformation = warrantyInformation
        self.shippingInformation = shippingInformation
        self.availabilityStatus = availabilityStatus
        self.reviews = reviews
        self.returnPolicy = returnPolicy
        self.minimumOrderQuantity = minimumOrderQuantity
        self.meta = meta
        self.images = images
        self.thumbnail = thumbnail
    }
}
