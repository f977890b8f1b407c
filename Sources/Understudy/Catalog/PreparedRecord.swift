import UnderstudyJSON

/// An item of a collection (a product, a user, a todo, one of your own), ready to serve: its compact JSON, written
/// once at load.
struct PreparedRecord: Sendable {
    /// The id as DummyJSON matches it: `String(id)`.
    let idText: String
    /// The whole item's compact JSON, shareable with evhttp by reference.
    let encoded: SharedBytes
    /// The id when it is an integer (string ids are allowed in your own collections).
    let integerID: Int?

    init(object: JSONObject, idText: String) {
        self.init(encoded: SharedBytes(JSONWriter.encode(.object(object))), idText: idText,
                  integerID: object["id"]?.intValue)
    }

    init(encoded: SharedBytes, idText: String, integerID: Int?) {
        self.idText = idText
        self.encoded = encoded
        self.integerID = integerID
    }

    /// The id as `String(id)` writes it: an integer's digits, or a string id as it is.
    static func idText(of value: JSONValue) -> String? {
        switch value {
        case .number(let number): number.exactInt.map(String.init)
        case .string(let text) where !text.isEmpty: text
        default: nil
        }
    }
}
