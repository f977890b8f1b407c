import UnderstudyJSON

/// A product ready to serve: its JSON encoded once at start-up, per key, so replies are concatenations.
struct PreparedProduct: Sendable {
    /// The id as DummyJSON matches it: `String(id)`.
    let idText: String
    /// The product as loaded.
    let object: JSONObject
    /// The whole product's compact JSON, shareable with evhttp by reference.
    let encoded: SharedBytes
    /// `"key":value` for each top-level key, for `select`.
    let fragments: [String: [UInt8]]
    /// Lower-cased title and description, for search.
    let searchableTitle: String
    let searchableDescription: String
    /// Lower-cased category slug.
    let categoryKey: String

    init(object: JSONObject, id: Int) {
        self.idText = String(id)
        self.object = object
        // Each key is encoded once: the whole product is its fragments in order, which is the compact encoding.
        var fragments: [String: [UInt8]] = [:]
        var whole: [UInt8] = [UInt8(ascii: "{")]
        whole.reserveCapacity(2_048)
        for (index, entry) in object.entries.enumerated() {
            var writer = JSONWriter(reservingCapacity: 64)
            writer.write(string: entry.key)
            writer.writeRaw(":")
            writer.write(entry.value)
            if index > 0 { whole.append(UInt8(ascii: ",")) }
            whole.append(contentsOf: writer.bytes)
            fragments[entry.key] = writer.bytes
        }
        whole.append(UInt8(ascii: "}"))
        self.encoded = SharedBytes(whole)
        self.fragments = fragments
        self.searchableTitle = (object["title"]?.stringValue ?? "").lowercased()
        self.searchableDescription = (object["description"]?.stringValue ?? "").lowercased()
        self.categoryKey = (object["category"]?.stringValue ?? "").lowercased()
    }

    /// The product's JSON with only `keys`, in that order (`id` is always first), as DummyJSON's `select` does.
    func encoded(selecting keys: [String]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.writeRaw("{")
        var first = true
        for key in keys {
            guard let fragment = fragments[key] else { continue }
            if !first { writer.writeRaw(",") }
            writer.writeRaw(fragment)
            first = false
        }
        writer.writeRaw("}")
        return writer.bytes
    }
}
