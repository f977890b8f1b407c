import Foundation
import Testing
@testable import Understudy

/// The scanner's fast path against the full parse: the same records, byte for byte, or a decline that leaves the
/// file (and its error message) to the parse.
@Suite struct FixtureLoaderScanTests {
    /// A compact text with whitespace after every comma between tokens (`,"` never occurs inside a string).
    private func spaced(_ text: String) -> [UInt8] {
        Array(text.replacingOccurrences(of: ",\"", with: ",\n   \"").utf8)
    }

    private let oddlyWritten = """
        [{"id": 1, "title": "Caf\\u00e9 \\/ bar", "category": "Café", "price": 10.50, "rating": 4e0, "tags": ["a"]},
         {"id": 2, "title": "Plain", "category": "c", "description": "Two  spaces", "stock": 3}]
        """

    @Test func productsAreTheParsersByteForByte() throws {
        for bytes in [Array(DefaultFixtures.productsJSON.utf8), spaced(DefaultFixtures.productsJSON), Array(oddlyWritten.utf8)] {
            let scanned = try #require(FixtureLoader.scannedProducts(from: RecordArena(copying: bytes)))
            let parsed = try FixtureLoader.parsedProducts(from: bytes, file: "products.json")
            #expect(scanned.records.map(\.idText) == parsed.records.map(\.idText))
            #expect(scanned.records.map(\.integerID) == parsed.records.map(\.integerID))
            #expect(scanned.records.map(\.encoded.bytes) == parsed.records.map(\.encoded.bytes))
            #expect(scanned.categories == parsed.categories)
        }
    }

    @Test(arguments: ["posts", "comments", "todos", "carts", "quotes", "recipes"])
    func collectionsAreTheParsersByteForByte(_ name: String) throws {
        let text = try #require(DefaultFixtures.resourcesJSON[name])
        for bytes in [Array(text.utf8), spaced(text)] {
            let scanned = try #require(FixtureLoader.scannedCollection(named: name, from: RecordArena(copying: bytes)))
            let parsed = try FixtureLoader.parsedCollection(named: name, from: bytes, file: "\(name).json")
            #expect(scanned.map(\.idText) == parsed.map(\.idText))
            #expect(scanned.map(\.integerID) == parsed.map(\.integerID))
            #expect(scanned.map(\.encoded.bytes) == parsed.map(\.encoded.bytes))
        }
    }

    /// Records are served from the file's bytes where they stand: written compact, as read; with whitespace,
    /// compacted at the start of their own span.
    @Test func recordsAreServedFromTheFilesOwnBytes() throws {
        let mixed = Array(#"[{"id":1,"title":"a","category":"c"},{"id": 2, "title": "b", "category": "c"},  {"id":3,"title":"c","category":"c"}]"#.utf8)
        let text = RecordArena(copying: mixed)
        let scanned = try #require(FixtureLoader.scannedProducts(from: text))
        let parsed = try FixtureLoader.parsedProducts(from: mixed, file: "products.json")
        #expect(scanned.records.map(\.encoded.bytes) == parsed.records.map(\.encoded.bytes))
        #expect(scanned.records.map { $0.encoded.base - text.base } == [1, 37, 80])
    }

    @Test func aFileThatFailsACheckIsLeftAsReadForTheParse() throws {
        let failing = spaced(#"[{"id":1,"title":"a","category":"c"},{"id":1,"title":"b","category":"c"}]"#)
        let text = RecordArena(copying: failing)
        #expect(FixtureLoader.scannedProducts(from: text) == nil)
        #expect(Array(text.bytes) == failing)
        let error = try #require(throws: FixtureError.self) { try FixtureLoader.products(from: text, file: "products.json") }
        #expect(error.reason.contains("duplicate product id 1"))
    }

    @Test func stringIDsAreKeptAsWritten() throws {
        let records = try #require(FixtureLoader.scannedCollection(named: "notes", from: RecordArena(copying: Array(#"[{"id":"a-1"},{"id":5}]"#.utf8))))
        #expect(records.map(\.idText) == ["a-1", "5"])
        #expect(records.map(\.integerID) == [nil, 5])
    }

    @Test(arguments: [
        #"[{"id": 1, "title": "x", "category": "c"}, {"id": 1, "title": "y", "category": "c"}]"#,
        #"[{"title": "x", "category": "c"}]"#,
        #"[{"id": 1, "category": "c"}]"#,
        #"[{"id": 1.5, "title": "x", "category": "c"}]"#,
        #"[{"id": 1, "title": "x", "category": "c", "price": "9"}]"#,
        #"[{"id": 1, "title": "x", "category": "c", "stock": 2.5}]"#,
        #"[{"id": 1, "title": "x", "category": "c", "tags": ["a", 1]}]"#,
        #"[{"id": 1, "title": 7, "category": "c"}]"#,
    ])
    func productsThatFailACheckAreLeftToTheParse(_ text: String) {
        #expect(FixtureLoader.scannedProducts(from: RecordArena(copying: Array(text.utf8))) == nil)
        #expect(throws: FixtureError.self) { try FixtureLoader.products(from: Array(text.utf8), file: "products.json") }
    }

    @Test func collectionsWithoutUsableIDsAreLeftToTheParse() {
        for text in [#"[{"id": 1}, {"id": 1}]"#, #"[{"name": "x"}]"#, #"[{"id": ""}]"#, #"[{"id": true}]"#] {
            #expect(FixtureLoader.scannedCollection(named: "notes", from: RecordArena(copying: Array(text.utf8))) == nil)
        }
    }
}
