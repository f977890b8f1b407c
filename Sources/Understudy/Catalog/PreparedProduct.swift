import UnderstudyJSON

/// A product ready to serve: its compact JSON, written once at load, and its category, which start-up lists.
struct PreparedProduct: ServedRecord {
    /// The id as DummyJSON matches it: `String(id)`.
    let idText: String
    /// The whole product's compact JSON, shareable with evhttp by reference.
    let encoded: SharedBytes
    /// The category slug as written, and lower-cased for `/products/category/{slug}`.
    let category: String
    let categoryKey: String

    init(object: JSONObject, id: Int) {
        self.init(idText: String(id), encoded: SharedBytes(JSONWriter.encode(.object(object))),
                  category: object["category"]?.stringValue ?? "")
    }

    init(idText: String, encoded: SharedBytes, category: String) {
        self.idText = idText
        self.encoded = encoded
        self.category = category
        self.categoryKey = category.lowercased()
    }

    /// Lower-cased title and description: what search matches.
    var searchableText: [String] {
        [(string("title") ?? "").lowercased(), (string("description") ?? "").lowercased()]
    }
}
