import UnderstudyJSON

/// What routes read of an item: its object, one field, its strings, or a `select`, all from its compact text.
///
/// An item keeps only that text: the parsed object of every item cost ~12 KiB of memory per product and most of
/// start-up, and a route reads whole objects for one item at a time (writes, carts), or one field of many (sorting,
/// indexes), which the text gives.
extension PreparedRecord {
    /// The item as loaded, keys in file order, parsed from its text.
    var object: JSONObject {
        withText { text in
            guard case .object(let object)? = try? JSONParser.parse(Array(text)) else { return JSONObject() }
            return object
        }
    }

    /// The top-level `field`'s value, parsed alone.
    func value(of field: String) -> JSONValue? {
        withText { text in CompactJSON.member(field, of: text).flatMap { CompactJSON.value(in: text, $0) } }
    }

    /// The top-level `field`'s value when it is a string.
    func string(_ field: String) -> String? {
        withText { text in CompactJSON.member(field, of: text).flatMap { CompactJSON.string(in: text, $0) } }
    }

    /// Every top-level string value, in order (what search reads in your own collections).
    var topLevelStrings: [String] {
        withText { text in
            var strings: [String] = []
            CompactJSON.forEachMember(of: text) { _, value in
                if let string = CompactJSON.string(in: text, value) { strings.append(string) }
                return true
            }
            return strings
        }
    }

    /// The item's JSON with only `keys`, in that order (`id` is always first), as DummyJSON's `select` does: each
    /// kept member's text is copied as it is.
    func encoded(selecting keys: [String]) -> [UInt8] {
        withText { text in
            var writer = JSONWriter(reservingCapacity: 128)
            writer.writeRaw("{")
            var first = true
            for key in keys {
                guard let range = CompactJSON.member(key, of: text) else { continue }
                if !first { writer.writeRaw(",") }
                writer.write(string: key)
                writer.writeRaw(":")
                writer.writeRaw(UnsafeBufferPointer(rebasing: text[range]))
                first = false
            }
            writer.writeRaw("}")
            return writer.bytes
        }
    }

    private func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        encoded.withText(body)
    }
}
