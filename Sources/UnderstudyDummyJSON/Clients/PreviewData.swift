/// The sample data behind ``ProductsClient/preview`` and ``AuthClient/preview``: a few products and one user in
/// DummyJSON's shapes, written in Swift so previews need no network, no bundle and no decoding.
public enum PreviewData {
    /// Three products in two categories; ids 1 to 3.
    public static let products: [Product] = [
        product(id: 1, title: "Essence Mascara Lash Princess", category: "beauty", price: 9.99, rating: 2.56,
                stock: 99, tags: ["beauty", "mascara"], brand: "Essence"),
        product(id: 2, title: "Eyeshadow Palette with Mirror", category: "beauty", price: 19.99, rating: 2.86,
                stock: 34, tags: ["beauty", "eyeshadow"], brand: "Glamour Beauty"),
        product(id: 3, title: "Calvin Klein CK One", category: "fragrances", price: 49.99, rating: 4.37,
                stock: 29, tags: ["fragrances", "perfumes"], brand: "Calvin Klein"),
    ]

    /// The categories of ``products``.
    public static let categories: [Category] = [
        Category(slug: "beauty", name: "Beauty", url: "https://dummyjson.com/products/category/beauty"),
        Category(slug: "fragrances", name: "Fragrances", url: "https://dummyjson.com/products/category/fragrances"),
    ]

    /// The signed-in user (`emilys`, password `emilyspass`, as on DummyJSON).
    public static let user = User(
        id: 1, firstName: "Emily", lastName: "Johnson", maidenName: "Smith", age: 28, gender: "female",
        email: "emily.johnson@x.dummyjson.com", phone: "+81 965-431-3024", username: "emilys",
        password: "emilyspass", birthDate: "1996-5-30", image: "https://dummyjson.com/icon/emilys/128",
        bloodGroup: "O-", height: 193.24, weight: 63.16, eyeColor: "Green",
        hair: .init(color: "Brown", type: "Curly"), ip: "42.48.100.32",
        address: address, macAddress: "47:fa:41:18:ec:eb", university: "University of Wisconsin--Madison",
        bank: .init(cardExpire: "03/26", cardNumber: "9289760655481815", cardType: "Elo", currency: "CNY",
                    iban: "YPUXISOBI7TTHPK2BR3HAIXL"),
        company: .init(department: "Engineering", name: "Dooley, Kozey and Cronin", title: "Sales Manager",
                       address: address),
        ein: "977-175", ssn: "900-590-289", userAgent: "Mozilla/5.0",
        crypto: .init(coin: "Bitcoin", wallet: "0xb9fc2fe63b2a6c003f1c324c3bfa53259162181a", network: "Ethereum (ERC20)"),
        role: "admin"
    )

    /// What logging in as ``user`` answers, with placeholder tokens.
    public static let login = LoginResponse(
        accessToken: "preview-access-token", refreshToken: "preview-refresh-token", id: user.id,
        username: user.username, email: user.email, firstName: user.firstName, lastName: user.lastName,
        gender: user.gender, image: user.image
    )

    private static let address = User.Address(
        address: "626 Main Street", city: "Phoenix", state: "Mississippi", stateCode: "MS", postalCode: "29112",
        coordinates: .init(lat: -77.16213, lng: -92.084824), country: "United States"
    )

    private static func product(id: Int, title: String, category: String, price: Double, rating: Double,
                                stock: Int, tags: [String], brand: String) -> Product {
        Product(
            id: id, title: title, description: "\(title), a sample product for previews.", category: category,
            price: price, discountPercentage: 10, rating: rating, stock: stock, tags: tags, brand: brand,
            sku: "PRV-\(id)", weight: 2, dimensions: .init(width: 10, height: 12, depth: 4),
            warrantyInformation: "1 year warranty", shippingInformation: "Ships in 1 week",
            availabilityStatus: "In Stock",
            reviews: [.init(rating: 5, comment: "Great!", date: "2025-04-30T09:41:02.053Z",
                            reviewerName: "Ann Preview", reviewerEmail: "ann.preview@x.dummyjson.com")],
            returnPolicy: "30 days return policy", minimumOrderQuantity: 1,
            meta: .init(createdAt: "2025-04-30T09:41:02.053Z", updatedAt: "2025-04-30T09:41:02.053Z",
                        barcode: "000000000000\(id)", qrCode: "https://cdn.dummyjson.com/public/qr-code.png"),
            images: ["https://cdn.dummyjson.com/product-images/\(id)/1.webp"],
            thumbnail: "https://cdn.dummyjson.com/product-images/\(id)/thumbnail.webp"
        )
    }
}
