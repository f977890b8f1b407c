import Foundation
import Testing
@testable import UnderstudyClient
@testable import UnderstudyDummyJSON
import UnderstudyTestSupport
import UnderstudyTesting

/// The models against the repository's fixtures, which follow DummyJSON's shapes.
@Suite struct ModelDecodingTests {
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures")

    @Test func everyFixtureProductDecodes() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("products.json"))
        let products = try JSONDecoder().decode([Product].self, from: data)
        #expect(products.count == 194)
        #expect(products.filter { $0.brand == nil }.count == 92)
        #expect(products.allSatisfy { $0.meta.createdAt.hasSuffix("Z") && $0.meta.createdAt.contains(".") })
    }

    @Test func everyFixtureUserDecodes() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("users.json"))
        let users = try JSONDecoder().decode([User].self, from: data)
        let emily = try #require(users.first)
        #expect(emily.username == "emilys")
        #expect(emily.address.coordinates.lat == 38.510617)
        #expect(emily.company.address.stateCode == "CO")
        #expect(emily.crypto.network == "Ethereum (ERC20)")
    }

    @Test func integerWrittenPricesDecodeAsDouble() throws {
        let product = try JSONDecoder().decode(Product.self, from: Data(Fixtures.productJSON.utf8))
        #expect(product.discountPercentage == 10)
        #expect(product.brand == nil)
        #expect(product.reviews.first?.date == "2025-04-30T09:41:02.053Z")
    }

    @Test func updateSubsetAndDeletedProduct() throws {
        let update = try JSONDecoder().decode(ProductUpdate.self, from: Data(#"{"id":195,"title":"Lamp"}"#.utf8))
        #expect(update == ProductUpdate(id: 195, title: "Lamp"))
        var deleted = Fixtures.productJSON
        deleted.removeLast()
        deleted += #","isDeleted":true,"deletedOn":"2026-01-01T00:00:00.000Z"}"#
        let value = try JSONDecoder().decode(DeletedProduct.self, from: Data(deleted.utf8))
        #expect(value.isDeleted)
        #expect(value.product.id == 1)
    }

    @Test func draftLeavesNilFieldsOut() throws {
        let data = try JSONEncoder().encode(ProductDraft(title: "Lamp", price: 9.5))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["title", "price"])
    }
}

extension ProductUpdate {
    init(id: Int, title: String? = nil) {
        self.init(id: id, title: title, price: nil, discountPercentage: nil, stock: nil, rating: nil, images: nil,
                  thumbnail: nil, description: nil, brand: nil, category: nil)
    }
}
