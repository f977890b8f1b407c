import Foundation
import Testing
import UnderstudyDummyJSON

/// The models' public memberwise initialisers, as an app builds fakes with them (no `@testable` here on purpose).
@Suite struct FakeModelTests {
    static let lamp = Product(
        id: 1, title: "Lamp", description: "A lamp", category: "home-decoration", price: 9.99,
        discountPercentage: 10, rating: 4.5, stock: 3, tags: ["light"], sku: "HOM-LAM-LAM-001", weight: 2,
        dimensions: .init(width: 10, height: 20.5, depth: 3), warrantyInformation: "1 year warranty",
        shippingInformation: "Ships in 1 week", availabilityStatus: "In Stock",
        reviews: [.init(rating: 5, comment: "Bright", date: "2025-04-30T09:41:02.053Z", reviewerName: "Ann",
                        reviewerEmail: "ann@x.dummyjson.com")],
        returnPolicy: "30 days return policy", minimumOrderQuantity: 2,
        meta: .init(createdAt: "2025-04-30T09:41:02.053Z", updatedAt: "2025-04-30T09:41:02.053Z",
                    barcode: "1234567890123", qrCode: "https://cdn.dummyjson.com/public/qr-code.png"),
        images: [], thumbnail: "https://cdn.dummyjson.com/t.webp"
    )

    @Test func aFakeProductRoundTrips() throws {
        #expect(Self.lamp.brand == nil)
        let decoded = try JSONDecoder().decode(Product.self, from: JSONEncoder().encode(Self.lamp))
        #expect(decoded == Self.lamp)
    }

    @Test func aFakePageAndUpdateNeedOnlyTheirFields() {
        let page = ProductList(products: [Self.lamp], total: 1, skip: 0, limit: 1)
        #expect(page.items.map(\.id) == [1])
        let update = ProductUpdate(id: 1, title: "Lamp 2")
        #expect(update.price == nil)
        let category = Category(slug: "home-decoration", name: "Home Decoration", url: "https://h.test/c")
        #expect(category.slug == "home-decoration")
    }
}
