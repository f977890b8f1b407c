import UnderstudyJSON

/// What DummyJSON's resource routes share: the validated-id family of errors (users and posts), the body-id
/// override of updates, and the random picks of todos and quotes.
extension Router {
    /// A user or post id checked as DummyJSON's `verifyUserHandler` / `verifyPostHandler` do (§0.7a): 400 when
    /// `Number(text)` is NaN, 404 when no item's `String(id)` is exactly `text`.
    func validated(_ text: String, in collection: RecordCollection, noun: String) throws(APIError) -> PreparedRecord {
        if JSNumber.number(text).isNaN { throw APIError(400, "Invalid \(noun) id '\(text)'") }
        guard let position = collection.position(of: text) else {
            throw APIError(404, "\(noun.prefix(1).uppercased() + noun.dropFirst()) with id '\(text)' not found")
        }
        return collection.records[position]
    }

    /// The same check for a body field (`userId`, `postId`): a falsy value is 400 `User id is required`; any other
    /// value is read as JavaScript's `String(value)` (so `[5]` is `"5"` and `true` is invalid).
    func validated(_ value: JSONValue?, in collection: RecordCollection, noun: String) throws(APIError) -> PreparedRecord {
        guard let value, value.isTruthy else {
            throw APIError(400, "\(noun.prefix(1).uppercased() + noun.dropFirst()) id is required")
        }
        return try validated(SortKey.jsString(value), in: collection, noun: noun)
    }

    /// The id an update acts on: the body's `id` when it sent one (handlers receive `{id: pathId, ...body}`).
    func updateTarget(_ path: String, _ fields: JSONObject) -> String {
        fields["id"].map { SortKey.jsString($0) } ?? path
    }

    /// `/random`: one item; `/random/{n}`: `n` distinct items in random order when `Number(n)` is 1…10 (a
    /// fraction rounds up), else `[]`.
    /// The picks draw from `seed`'s generator, so two servers with the same seed answer the same picks in order.
    func randomPick(_ collection: RecordCollection, _ count: String?, seed: UInt64) -> HTTPResponse {
        guard let count else {
            let picked = withPicker(seed: seed) { collection.records.randomElement(using: &$0) }
            guard let record = picked else { return .json(Array("{}".utf8)) }
            return .json(record.encoded)
        }
        let wanted = JSNumber.number(count)
        guard wanted >= 1, wanted <= 10 else { return .json(Array("[]".utf8)) }
        let picks = withPicker(seed: seed) { collection.records.indices.shuffled(using: &$0) }.prefix(Int(wanted.rounded(.up)))
        var writer = JSONWriter(reservingCapacity: picks.count * 128 + 2)
        writer.writeRaw("[")
        for (position, index) in picks.enumerated() {
            if position > 0 { writer.writeRaw(",") }
            writer.writeRaw(collection.records[index].encoded.buffer)
        }
        writer.writeRaw("]")
        return .json(writer.bytes)
    }

    /// The fields of `fields` among `keys`, in that order, after `id`: what the add handlers echo (types as sent).
    func echoed(id: Int, _ fields: JSONObject, _ keys: [String]) -> JSONObject {
        var object = JSONObject([.init(key: "id", value: .number(JSONNumber(id)))])
        for key in keys { if let value = fields[key] { object[key] = value } }
        return object
    }

    /// The update merge of posts and recipes: each field the body's value when truthy, else the stored one.
    func mergedOnTruthiness(_ stored: JSONObject, _ fields: JSONObject, _ keys: [String]) -> JSONObject {
        var object = JSONObject([.init(key: "id", value: .number(JSONNumber(JSNumber.number(stored["id"].map { SortKey.jsString($0) } ?? "0"))))])
        for key in keys {
            if let sent = fields[key], sent.isTruthy { object[key] = sent } else if let kept = stored[key] { object[key] = kept }
        }
        return object
    }
}
