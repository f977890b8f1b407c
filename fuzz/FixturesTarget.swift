import UnderstudyJSON

// libFuzzer target: fixture files (products and users) and scenario files, as a user might hand them over.
func fuzzFixtures(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? FixtureLoader.products(from: bytes, file: "products.json")
    // The scanner's fast path must load exactly what the parser loads, whenever it takes a file.
    if let scanned = FixtureLoader.scannedProducts(from: bytes) {
        let parsed = try? FixtureLoader.parsedProducts(from: bytes, file: "products.json")
        precondition(parsed.map { $0.records.map(\.encoded.bytes) } == scanned.records.map(\.encoded.bytes))
        precondition(parsed.map { $0.categories } == scanned.categories)
    }
    if let scanned = FixtureLoader.scannedCollection(named: "notes", from: bytes) {
        let parsed = try? FixtureLoader.parsedCollection(named: "notes", from: bytes, file: "notes.json")
        precondition(parsed.map { $0.map(\.encoded.bytes) } == scanned.map(\.encoded.bytes))
        precondition(parsed.map { $0.map(\.idText) } == scanned.map(\.idText))
    }
    _ = try? FixtureLoader.users(from: bytes, file: "users.json")
    _ = try? Scenario.parse(bytes, file: "scenario.json")
    if let value = try? JSONParser.parse(bytes) {
        // Whatever parses must re-parse to the same value after writing.
        precondition((try? JSONParser.parse(value.jsonBytes)) == value)
    }
    return 0
}
