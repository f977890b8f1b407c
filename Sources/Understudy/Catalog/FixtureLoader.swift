import Foundation
import UnderstudyJSON

/// Reads DummyJSON-format `products.json` and `users.json`, checking every value a route relies on.
///
/// Both a bare array and DummyJSON's list wrapper (`{"products": [...]}`, as `curl …/products?limit=0` saves it)
/// are accepted. Any problem fails the whole load with the file, line, column and JSON path: a server never starts
/// half-loaded.
enum FixtureLoader {
    /// A file's products, and each one's category, in file order.
    typealias Products = (records: [PreparedRecord], categories: [String])

    /// The products of a file as `/products` serves them, grouped by category: by the scanner when it takes the
    /// file and every product passes the checks, else by the full parse, which reports the first problem.
    static func products(from bytes: [UInt8], file: String) throws(FixtureError) -> RecordCollection {
        try products(from: RecordArena(copying: bytes), file: file)
    }

    /// The products of a file's bytes, which the records then borrow.
    static func products(from text: RecordArena, file: String) throws(FixtureError) -> RecordCollection {
        let loaded: Products
        if let scanned = scannedProducts(from: text) {
            loaded = scanned
        } else {
            loaded = try parsedProducts(from: Array(text.bytes), file: file)
        }
        return RecordCollection(name: "products", records: loaded.records, searchFields: Catalog.searchFields["products"],
                                groups: (field: "category", values: loaded.categories))
    }

    static func parsedProducts(from bytes: [UInt8], file: String) throws(FixtureError) -> Products {
        let records = try identifiedRecords(from: bytes, file: file, wrapperKey: "products", noun: "product")
        var products: [PreparedRecord] = []
        var categories: [String] = []
        products.reserveCapacity(records.count)
        categories.reserveCapacity(records.count)
        for (object, id, path) in records {
            try requireString(object, "title", path, file, bytes)
            categories.append(try requireString(object, "category", path, file, bytes))
            for key in ["description", "brand", "sku", "thumbnail", "availabilityStatus"] {
                try optional(object, key, path, file, bytes, "a string") { $0.stringValue != nil }
            }
            for key in ["price", "discountPercentage", "rating"] {
                try optional(object, key, path, file, bytes, "a number") { $0.doubleValue != nil }
            }
            for key in ["stock", "minimumOrderQuantity"] {
                try optional(object, key, path, file, bytes, "an integer") { $0.intValue != nil }
            }
            for key in ["tags", "images"] {
                try optional(object, key, path, file, bytes, "an array of strings") { value in
                    guard case .array(let items) = value else { return false }
                    return items.allSatisfy { $0.stringValue != nil }
                }
            }
            products.append(PreparedRecord(encoded: SharedBytes(JSONWriter.encode(.object(object))), idText: String(id),
                                           integerID: id))
        }
        return (products, categories)
    }

    static func users(from bytes: [UInt8], file: String) throws(FixtureError) -> UserDirectory {
        var seenNames: Set<String> = []
        var users: [UserDirectory.User] = []
        for (object, id, path) in try identifiedRecords(from: bytes, file: file, wrapperKey: "users", noun: "user") {
            let username = try requireString(object, "username", path, file, bytes)
            guard !username.isEmpty, seenNames.insert(username.lowercased()).inserted else {
                throw failure(file, bytes, path + [.key("username")], "username \"\(username)\" is empty or used twice")
            }
            let password = try requireString(object, "password", path, file, bytes)
            for key in ["email", "firstName", "lastName", "gender", "image"] {
                try optional(object, key, path, file, bytes, "a string") { $0.stringValue != nil }
            }
            users.append(UserDirectory.User(
                id: id, username: username, password: password, object: object,
                encoded: SharedBytes(JSONWriter.encode(.object(object)))))
        }
        return UserDirectory(users: users)
    }

    /// Your own collection, `DIR/<name>.json`: a bare array or `{"<name>": [...]}` of objects, each with an `id`
    /// (an integer or a non-empty string) used by no other item.
    static func collection(named name: String, from bytes: [UInt8], file: String) throws(FixtureError) -> RecordCollection {
        try collection(named: name, from: RecordArena(copying: bytes), file: file)
    }

    /// Your own collection from a file's bytes, which the records then borrow.
    static func collection(named name: String, from text: RecordArena, file: String) throws(FixtureError) -> RecordCollection {
        if let scanned = scannedCollection(named: name, from: text) { return RecordCollection(name: name, records: scanned) }
        return RecordCollection(name: name, records: try parsedCollection(named: name, from: Array(text.bytes), file: file))
    }

    static func parsedCollection(named name: String, from bytes: [UInt8], file: String) throws(FixtureError) -> [PreparedRecord] {
        var seenIDs: Set<String> = []
        var records: [PreparedRecord] = []
        let elements = try FixtureLoader.records(from: bytes, file: file, wrapperKey: name)
        records.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let path: [JSONPathComponent] = [.index(index)]
            guard case .object(let object) = element else {
                throw failure(file, bytes, path, "expected an object, found \(element.typeName)")
            }
            guard let id = object["id"] else { throw failure(file, bytes, path, "missing required key \"id\"") }
            guard let idText = PreparedRecord.idText(of: id) else {
                throw failure(file, bytes, path + [.key("id")], "expected an integer or a non-empty string id, found \(id.typeName)")
            }
            guard seenIDs.insert(idText).inserted else {
                throw failure(file, bytes, path + [.key("id")], "duplicate id \(idText)")
            }
            records.append(PreparedRecord(object: object, idText: idText))
        }
        return records
    }

    /// Each record as an object with its integer `id`, unique in the file, and its JSON path.
    private static func identifiedRecords(
        from bytes: [UInt8], file: String, wrapperKey: String, noun: String
    ) throws(FixtureError) -> [(object: JSONObject, id: Int, path: [JSONPathComponent])] {
        var seenIDs: Set<Int> = []
        var result: [(object: JSONObject, id: Int, path: [JSONPathComponent])] = []
        for (index, element) in try records(from: bytes, file: file, wrapperKey: wrapperKey).enumerated() {
            let path: [JSONPathComponent] = [.index(index)]
            guard case .object(let object) = element else {
                throw failure(file, bytes, path, "expected a \(noun) object, found \(element.typeName)")
            }
            let id = try integer(object, "id", path, file, bytes)
            guard seenIDs.insert(id).inserted else {
                throw failure(file, bytes, path + [.key("id")], "duplicate \(noun) id \(id)")
            }
            result.append((object, id, path))
        }
        return result
    }

    private static func records(from bytes: [UInt8], file: String, wrapperKey: String) throws(FixtureError) -> [JSONValue] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw FixtureError(file: file, line: error.line, column: error.column, path: nil, reason: error.reason)
        }
        switch document {
        case .array(let elements):
            return elements
        case .object(let object):
            guard case .array(let elements)? = object[wrapperKey] else {
                throw FixtureError(file: file, line: 1, column: 1, path: nil,
                                   reason: "expected an array, or an object with a \"\(wrapperKey)\" array")
            }
            return elements
        default:
            throw FixtureError(file: file, line: 1, column: 1, path: nil,
                               reason: "expected an array of \(wrapperKey), found \(document.typeName)")
        }
    }

    private static func integer(
        _ object: JSONObject, _ key: String, _ path: [JSONPathComponent], _ file: String, _ bytes: [UInt8]
    ) throws(FixtureError) -> Int {
        try required(object, key, path, file, bytes, "an integer") { $0.intValue }
    }

    @discardableResult
    private static func requireString(
        _ object: JSONObject, _ key: String, _ path: [JSONPathComponent], _ file: String, _ bytes: [UInt8]
    ) throws(FixtureError) -> String {
        try required(object, key, path, file, bytes, "a string") { $0.stringValue }
    }

    /// The value of a key that must be there, read by `extract`, or an error naming the key and what it holds.
    private static func required<Value>(
        _ object: JSONObject, _ key: String, _ path: [JSONPathComponent], _ file: String, _ bytes: [UInt8],
        _ expectation: String, _ extract: (JSONValue) -> Value?
    ) throws(FixtureError) -> Value {
        guard let value = object[key] else { throw failure(file, bytes, path, "missing required key \"\(key)\"") }
        guard let extracted = extract(value) else {
            throw failure(file, bytes, path + [.key(key)], "expected \(expectation), found \(value.typeName)")
        }
        return extracted
    }

    private static func optional(
        _ object: JSONObject, _ key: String, _ path: [JSONPathComponent], _ file: String, _ bytes: [UInt8],
        _ expectation: String, _ isValid: (JSONValue) -> Bool
    ) throws(FixtureError) {
        guard let value = object[key], !isValid(value) else { return }
        throw failure(file, bytes, path + [.key(key)], "expected \(expectation), found \(value.typeName)")
    }

    private static func failure(
        _ file: String, _ bytes: [UInt8], _ path: [JSONPathComponent], _ reason: String
    ) -> FixtureError {
        let position = JSONParser.position(of: path, in: bytes)
        return FixtureError(file: file, line: position?.line, column: position?.column,
                            path: path.pathDescription, reason: reason)
    }
}
