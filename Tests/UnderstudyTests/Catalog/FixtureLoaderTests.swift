import Foundation
import Testing
@testable import Understudy

@Suite struct FixtureLoaderTests {
    private func loadProducts(_ text: String) throws(FixtureError) -> RecordCollection {
        try FixtureLoader.products(from: Array(text.utf8), file: "products.json")
    }

    @Test func acceptsAnArrayOrDummyJSONsWrapper() throws {
        let product = #"{"id": 7, "title": "Lamp", "category": "lighting", "price": 9.5}"#
        #expect(try loadProducts("[\(product)]").count == 1)
        #expect(try loadProducts(#"{"products": [\#(product)], "total": 1}"#).count == 1)
    }

    @Test func syntaxErrorsNameTheFileLineAndColumn() {
        #expect(throws: FixtureError(file: "products.json", line: 2, column: 12, path: nil,
                                     reason: "expected ',' or '}' after an object entry, found '\"'")) {
            try loadProducts("[\n  {\"id\": 1 \"title\": \"x\"}\n]")
        }
    }

    @Test func wrongTypesNameThePathAndPosition() throws {
        let text = "[\n  {\"id\": 1, \"title\": \"A\", \"category\": \"c\"},\n  {\"id\": 2, \"title\": \"B\", \"category\": \"c\", \"price\": \"9.99\"}\n]"
        do {
            _ = try loadProducts(text)
            Issue.record("loaded a string price")
        } catch {
            #expect(error.path == "[1].price")
            #expect(error.line == 3)
            #expect(error.description == "products.json:3:53: [1].price: expected a number, found string")
        }
    }

    @Test(arguments: [
        (#"[{"title": "x", "category": "c"}]"#, "missing required key \"id\""),
        (#"[{"id": 1.5, "title": "x", "category": "c"}]"#, "expected an integer, found number"),
        (#"[{"id": 1, "title": "x", "category": "c"}, {"id": 1, "title": "y", "category": "c"}]"#, "duplicate product id 1"),
        (#"[{"id": 1, "title": "x", "category": "c", "tags": [1]}]"#, "expected an array of strings"),
        (#"[3]"#, "expected a product object, found number"),
        (#"{"items": []}"#, "expected an array, or an object with a \"products\" array"),
    ])
    func invalidProductsAreRefused(text: String, reason: String) {
        do {
            _ = try loadProducts(text)
            Issue.record("loaded \(text)")
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func usersNeedUniqueNamesAndPasswords() {
        #expect(throws: FixtureError.self) {
            try FixtureLoader.users(from: Array(#"[{"id": 1, "username": "a", "password": "apass"}, {"id": 2, "username": "A", "password": "x"}]"#.utf8), file: "users.json")
        }
        #expect(throws: FixtureError.self) {
            try FixtureLoader.users(from: Array(#"[{"id": 1, "username": "a"}]"#.utf8), file: "users.json")
        }
    }

    @Test func directoryLoadingFallsBackAndFailsClearly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        #expect(throws: FixtureError.self) { try Catalog.load(directory: directory.path) }
        #expect(throws: FixtureError.self) { try Catalog.load(directory: directory.appendingPathComponent("missing").path) }

        try Data(#"[{"id": 1, "title": "Only", "category": "solo", "price": 1.5}]"#.utf8)
            .write(to: directory.appendingPathComponent("products.json"))
        let catalog = try Catalog.load(directory: directory.path)
        #expect(catalog.productCount == 1)
        #expect(catalog.userCount == Catalog.standard.userCount)

        try Data("[{]".utf8).write(to: directory.appendingPathComponent("users.json"))
        do {
            _ = try Catalog.load(directory: directory.path)
            Issue.record("loaded a broken users.json")
        } catch {
            #expect(error.file.hasSuffix("users.json"))
            #expect(error.line == 1 && error.column == 3)
        }
    }
}
