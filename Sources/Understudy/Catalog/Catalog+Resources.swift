import UnderstudyLocking
import UnderstudyJSON

/// DummyJSON's resources besides products: the users (the same records that log in) and posts, comments, todos,
/// carts, quotes and recipes from the embedded data (`DefaultFixtures+Resources.swift`).
///
/// Each is parsed the first time a route asks for it, so start-up pays only for products and users; the embedded
/// data is checked by the test suite, so a parse here cannot fail for a built binary.
extension Catalog {
    /// The fields DummyJSON's search reads, per resource (dummyjson-resources.md §0.6).
    static let searchFields: [String: [String]] = [
        "products": ["title", "description"],
        "users": ["firstName", "lastName", "email", "username"],
        "posts": ["body"],
        "recipes": ["name"],
    ]

    var userRecords: RecordCollection { builtIn("users") }
    var posts: RecordCollection { builtIn("posts") }
    var comments: RecordCollection { builtIn("comments") }
    var todos: RecordCollection { builtIn("todos") }
    var carts: RecordCollection { builtIn("carts") }
    var quotes: RecordCollection { builtIn("quotes") }
    var recipes: RecordCollection { builtIn("recipes") }

    private func builtIn(_ name: String) -> RecordCollection {
        if let loaded = builtIns.withLock({ $0[name] }) { return loaded }
        let collection: RecordCollection
        if name == "users" {
            // The text each user was written as at load, shared: encoding every user again made the first `/users`
            // request of 100,000 users (`--fixtures`) take 1.2 s on the loop; it takes ~0.05 s.
            collection = RecordCollection(name: name, records: users.users.map {
                PreparedRecord(encoded: $0.encoded, idText: String($0.id), integerID: $0.id)
            }, searchFields: Catalog.searchFields[name])
        } else {
            do {
                let loaded = try FixtureLoader.collection(named: name, from: RecordArena(copying: (DefaultFixtures.resourcesJSON[name] ?? "[]").utf8),
                                                          file: "<embedded \(name).json>")
                collection = RecordCollection(name: name, records: loaded.records, searchFields: Catalog.searchFields[name])
            } catch {
                fatalError("Understudy's embedded \(name) are invalid: \(error)")
            }
        }
        return builtIns.withLock { loaded in
            if let raced = loaded[name] { return raced }
            loaded[name] = collection
            return collection
        }
    }
}
