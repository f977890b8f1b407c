import UnderstudyJSON

// libFuzzer target: fixture files (products and users) and scenario files, as a user might hand them over.
func fuzzFixtures(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? FixtureLoader.products(from: bytes, file: "products.json")
    // The scanner's fast path must load exactly what the parser loads, whenever it takes a file.
    // Records are compacted in the file's own bytes, so a file the scanner declines must be left as read.
    let products = RecordArena(copying: bytes)
    if let scanned = FixtureLoader.scannedProducts(from: products) {
        let parsed = try? FixtureLoader.parsedProducts(from: bytes, file: "products.json")
        precondition(parsed.map { $0.records.map(\.encoded.bytes) } == scanned.records.map(\.encoded.bytes))
        precondition(parsed.map { $0.categories } == scanned.categories)
    } else {
        precondition(Array(products.bytes) == bytes)
    }
    let notes = RecordArena(copying: bytes)
    if let scanned = FixtureLoader.scannedCollection(named: "notes", from: notes) {
        let parsed = try? FixtureLoader.parsedCollection(named: "notes", from: bytes, file: "notes.json")
        precondition(parsed.map { $0.map(\.encoded.bytes) } == scanned.map(\.encoded.bytes))
        precondition(parsed.map { $0.map(\.idText) } == scanned.map(\.idText))
    } else {
        precondition(Array(notes.bytes) == bytes)
    }
    _ = try? FixtureLoader.users(from: bytes, file: "users.json")
    _ = try? Scenario.parse(bytes, file: "scenario.json")
    if let value = try? JSONParser.parse(bytes) {
        // Whatever parses must re-parse to the same value after writing.
        precondition((try? JSONParser.parse(value.jsonBytes)) == value)
    }
    return 0
}
