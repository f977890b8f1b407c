import Foundation
import Testing
import Understudy

/// A client-side model as strict as an app's: every key required (brand optional), exact types, no extras.
struct StrictProduct: Decodable {
    struct Dimensions: Decodable { let width, height, depth: Double }
    struct Review: Decodable {
        let rating: Int
        let comment, date, reviewerName, reviewerEmail: String
    }
    struct Meta: Decodable { let createdAt, updatedAt, barcode, qrCode: String }

    let id: Int
    let title, description, category: String
    let price, discountPercentage, rating: Double
    let stock: Int
    let tags: [String]
    let brand: String?
    let sku: String
    let weight: Int
    let dimensions: Dimensions
    let warrantyInformation, shippingInformation, availabilityStatus: String
    let reviews: [Review]
    let returnPolicy: String
    let minimumOrderQuantity: Int
    let meta: Meta
    let images: [String]
    let thumbnail: String
}

struct StrictProductList: Decodable {
    let products: [StrictProduct]
    let total, skip, limit: Int
}

@Suite struct StrictProductModelTests {
    @Test func decodesTheWholeCatalogue() async throws {
        try await withServer { _, client in
            let reply = try await client.send("/products?limit=0")
            let list = try JSONDecoder().decode(StrictProductList.self, from: reply.body)
            #expect(list.products.count == 194)
            #expect(list.total == 194)
            #expect(list.limit == 194)
            #expect(list.products.map(\.id) == Array(1...194))
            #expect(list.products.filter { $0.brand == nil }.count == 92)
            for product in list.products {
                #expect(URL(string: product.thumbnail) != nil)
                #expect(product.images.allSatisfy { URL(string: $0) != nil })
            }
        }
    }
}
