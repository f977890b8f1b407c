// libFuzzer target: query strings through DummyJSON's validation and the whole list pipeline.

/// Every eighth product of the built-in catalogue, which still covers each category: the list pipeline's work is
/// linear in the catalogue, and under ASan the full 194 products held the fuzzer to ~45 inputs a second.
private let sampledCatalog = Catalog(
    products: Swift.stride(from: 0, to: Catalog.standard.productCount, by: 8).map { Catalog.standard.products.records[$0] },
    users: Catalog.standard.users)

func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let router = Router(catalog: sampledCatalog, tokens: TokenService(secret: "fuzz"))
    for path in ["/products", "/products/search", "/products/category/smartphones", "/products/1", "/products/stream"] {
        let routed = router.route(HTTPRequest(method: "GET", target: path + "?" + text))
        precondition((200..<600).contains(routed.response.status))
    }
    return 0
}
