import UnderstudyJSON

/// An item of a collection other than products, ready to serve: its whole JSON is encoded once at load; `select`
/// encodes the keys it keeps from the object (a per-key table for every item would cost start-up for a
/// parameter most requests do not send).
struct PreparedRecord: ServedRecord {
    let idText: String
    let object: JSONObject
    let encoded: SharedBytes

    init(object: JSONObject, idText: String) {
        self.idText = idText
        self.object = object
        self.encoded = SharedBytes(JSONWriter.encode(.object(object)))
    }

    func encoded(selecting keys: [String]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.writeRaw("{")
        var first = true
        for key in keys {
            guard let value = object[key] else { continue }
            if !first { writer.writeRaw(",") }
            writer.write(string: key)
            writer.writeRaw(":")
            writer.write(value)
            first = false
        }
        writer.writeRaw("}")
        return writer.bytes
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
