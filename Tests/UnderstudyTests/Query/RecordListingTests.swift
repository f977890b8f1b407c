import Testing
@testable import Understudy
import UnderstudyJSON

/// The list pipeline over the built-in products, and the products' search and categories in the collection engine.
@Suite struct RecordListingTests {
    private let products = Catalog.standard.products

    private func page(_ query: String, matching: [Int]? = nil) throws -> JSONObject {
        let parsed = try ListQuery.parse(QueryParameters(Substring(query)))
        let body = RecordListing.body("products", products.records, matching: matching ?? Array(products.all),
                                      query: parsed, columns: products.columns)
        guard case .object(let object) = try JSONParser.parse(body) else { throw APIError(500, "not an object") }
        return object
    }

    private func ids(_ object: JSONObject) -> [Int] {
        guard case .array(let products)? = object["products"] else { return [] }
        return products.compactMap { $0["id"]?.intValue }
    }

    @Test func defaultPageIsThirtyOfAll() throws {
        let object = try page("")
        #expect(ids(object) == Array(1...30))
        #expect(object["total"]?.intValue == 194)
        #expect(object["skip"]?.intValue == 0)
        #expect(object["limit"]?.intValue == 30)
        #expect(object.keys == ["products", "total", "skip", "limit"])
    }

    /// `JSON.stringify` writes an infinite skip as null; "inf" would not be JSON at all.
    @Test func anInfiniteSkipIsWrittenAsNull() throws {
        let object = try page("skip=\(String(repeating: "9", count: 400))")
        #expect(object["skip"] == .null)
        #expect(ids(object).isEmpty)
    }

    @Test func limitIsTheCountReturned() throws {
        #expect(try page("skip=190").limit == 4)
        let beyond = try page("skip=500")
        #expect(ids(beyond).isEmpty)
        #expect(beyond["limit"]?.intValue == 0)
        #expect(beyond["skip"]?.intValue == 500)
    }

    @Test func javaScriptSliceEdgeCases() throws {
        #expect(ids(try page("limit=0")).count == 194)
        #expect(ids(try page("limit=1.9")) == [1])
        #expect(ids(try page("limit=")).isEmpty)
        #expect(ids(try page("limit=-190")) == [1, 2, 3, 4])
        let negativeSkip = try page("skip=-5&limit=2")
        #expect(ids(negativeSkip) == [1, 2])
        #expect(negativeSkip["skip"]?.intValue == -5)
        #expect(try page("skip=").keys.contains("skip"))
        #expect(try page("skip=")["skip"] == .null)
        #expect(ids(try page("limit=99999999999999999999")).count == 194)
    }

    @Test func selectKeepsIdFirstAndDropsUnknownKeys() throws {
        let object = try page("limit=1&select=price,title,nope,meta.barcode")
        guard case .array(let products)? = object["products"], case .object(let first)? = products.first else {
            Issue.record("no products")
            return
        }
        #expect(first.keys == ["id", "price", "title"])
    }

    @Test func sortsLikeJavaScript() throws {
        #expect(Array(ids(try page("sortBy=price&order=desc")).prefix(3)) == [170, 168, 171])
        #expect(ids(try page("sortBy=title&order=asc")).first == 167)
        #expect(ids(try page("sortBy=nothing&order=desc")) == Array(1...30))
        #expect(ids(try page("sortBy=meta.barcode")) == Array(1...30))
        let byPrice = try page("sortBy=price&limit=0")
        guard case .array(let products)? = byPrice["products"] else { return }
        let prices = products.compactMap { $0["price"]?.doubleValue }
        #expect(prices == prices.sorted())
    }

    @Test func brandlessProductsSortLast() throws {
        let sorted = ids(try page("sortBy=brand&limit=0"))
        let brandless = Set(products.records.filter { $0.object["brand"] == nil }.compactMap { Int($0.idText) })
        #expect(Set(sorted.suffix(brandless.count)) == brandless)
    }

    @Test(arguments: ["phone", "smartphones", "e", "the ", "Phone", "zzz", "\u{FF}"])
    func searchMatchesTitleOrDescriptionOnly(_ query: String) {
        // The index's answer against a plain scan of every product's parsed title and description.
        let needle = query.lowercased()
        let expected = products.all.filter { index in
            let object = products.records[index].object
            return [object["title"], object["description"]].contains { value in
                (value?.stringValue ?? "").lowercased().contains(needle)
            }
        }
        #expect(products.search(needle) == expected)
        #expect(products.search("").count == 194)
    }

    @Test func categoryMatchesCaseInsensitively() {
        #expect(products.matching("category", containsIgnoringCase: "SMARTPHONES") == Array(120...135))
        #expect(products.matching("category", containsIgnoringCase: "nope").isEmpty)
    }

    /// The categories read at load index the same items, and list the same slugs, as the items' texts would.
    @Test func categoriesReadAtLoadAgreeWithTheItemsTexts() {
        let unindexed = RecordCollection(name: "products", records: products.records)
        #expect(products.distinctElements(of: "category") == unindexed.distinctElements(of: "category"))
        for slug in products.distinctElements(of: "category") + ["SMARTPHONES", "Beauty", "nope"] {
            #expect(products.matching("category", containsIgnoringCase: slug)
                    == unindexed.matching("category", containsIgnoringCase: slug))
        }
    }
}

private extension JSONObject {
    var limit: Int? { self["limit"]?.intValue }
}
