import UnderstudyJSON

// libFuzzer target: fixture files (products and users) and scenario files, as a user might hand them over.
func fuzzFixtures(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? FixtureLoader.products(from: bytes, file: "products.json")
    _ = try? FixtureLoader.users(from: bytes, file: "users.json")
    _ = try? Scenario.parse(bytes, file: "scenario.json")
    if let value = try? JSONParser.parse(bytes) {
        // Whatever parses must re-parse to the same value after writing.
        precondition((try? JSONParser.parse(value.jsonBytes)) == value)
    }
    return 0
}
