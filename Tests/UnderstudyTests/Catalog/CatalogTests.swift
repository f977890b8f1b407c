import Foundation
import Testing
@testable import Understudy
import UnderstudyJSON

@Suite struct CatalogTests {
    private static let categoryBlocks: [(String, ClosedRange<Int>)] = [
        ("beauty", 1...5), ("fragrances", 6...10), ("furniture", 11...15), ("groceries", 16...42),
        ("home-decoration", 43...47), ("kitchen-accessories", 48...77), ("laptops", 78...82),
        ("mens-shirts", 83...87), ("mens-shoes", 88...92), ("mens-watches", 93...98),
        ("mobile-accessories", 99...112), ("motorcycle", 113...117), ("skin-care", 118...120),
        ("smartphones", 121...136), ("sports-accessories", 137...153), ("sunglasses", 154...158),
        ("tablets", 159...161), ("tops", 162...166), ("vehicle", 167...171), ("womens-bags", 172...176),
        ("womens-dresses", 177...181), ("womens-jewellery", 182...184), ("womens-shoes", 185...189),
        ("womens-watches", 190...194),
    ]
    private static let productKeys = ["id", "title", "description", "category", "price", "discountPercentage", "rating",
                                      "stock", "tags", "brand", "sku", "weight", "dimensions", "warrantyInformation",
                                      "shippingInformation", "availabilityStatus", "reviews", "returnPolicy",
                                      "minimumOrderQuantity", "meta", "images", "thumbnail"]
    private static let brandless: Set<String> = ["groceries", "kitchen-accessories", "sports-accessories",
                                                 "home-decoration", "tops", "womens-dresses", "womens-jewellery"]

    @Test func standardCatalogueHasTheContractsShape() {
        let catalog = Catalog.standard
        #expect(catalog.productCount == 194)
        #expect(catalog.products.distinctElements(of: "category") == CatalogTests.categoryBlocks.map(\.0))
        for (slug, ids) in CatalogTests.categoryBlocks {
            for id in ids {
                let product = catalog.products.records[id - 1]
                #expect(product.idText == String(id))
                #expect(product.object["category"]?.stringValue == slug)
                let expectedKeys = CatalogTests.brandless.contains(slug)
                    ? CatalogTests.productKeys.filter { $0 != "brand" } : CatalogTests.productKeys
                #expect(product.object.keys == expectedKeys, "product \(id)")
            }
        }
    }

    @Test func valuesHaveDummyJSONsTypesAndRanges() throws {
        let iso = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#)
        for product in Catalog.standard.products.records {
            let object = product.object
            let price = try #require(object["price"]?.doubleValue)
            #expect(price.rounded() != price && price >= 0.79 && price <= 36_999.99)
            #expect(object["stock"]?.intValue.map { (0...100).contains($0) } == true)
            guard case .array(let reviews)? = object["reviews"], case .array(let images)? = object["images"] else {
                Issue.record("reviews or images missing on \(product.idText)")
                continue
            }
            #expect(reviews.count == 3)
            #expect((1...6).contains(images.count))
            for review in reviews {
                #expect(review["date"]?.stringValue.map { $0.wholeMatch(of: iso) != nil } == true)
            }
        }
    }

    @Test func categoriesAreNamedFromTheirSlugs() {
        #expect(ResourceRoutes.Grouping.displayName(of: "home-decoration") == "Home Decoration")
        #expect(ResourceRoutes.Grouping.displayName(of: "mens-shirts") == "Mens Shirts")
    }

    @Test func usersIncludeTheTutorialLogin() throws {
        let users = Catalog.standard.users
        #expect(users.users.count >= 30)
        let emily = try #require(users.user(named: "EmilyS"))
        #expect(emily.password == "emilyspass")
        for user in users.users { #expect(user.password == user.username + "pass") }
    }

    @Test func embeddedCopyMatchesTheFixturesFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let fromFiles = try Catalog.load(directory: root.appendingPathComponent("fixtures").path)
        #expect(fromFiles.products.records.map(\.encoded.bytes) == Catalog.standard.products.records.map(\.encoded.bytes))
        #expect(fromFiles.users.users.map(\.encoded.bytes) == Catalog.standard.users.users.map(\.encoded.bytes))
    }
}
