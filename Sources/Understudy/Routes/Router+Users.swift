import UnderstudyJSON

/// `/users…` (alias `/user`): the users who log in, their lists, relations and simulated writes
/// (dummyjson-resources.md §1). Login and `me` are in `Router+Auth`.
extension Router {
    /// The nested objects of a user, whose leaves the writes merge one by one.
    static let userNestedKeys: Set<String> = ["hair", "address", "bank", "company", "crypto"]

    func userRoute(_ request: HTTPRequest, method: String, _ rest: ArraySlice<String>,
                   _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let users = catalog.userRecords
        switch rest.count {
        case 0:
            try require("GET", method, request)
            return cachedJSON(request, query) { SharedBytes(list(users, users.all, query)) }
        case 1:
            let name = rest[rest.startIndex]
            switch (method, name) {
            case ("GET", "search"):
                return cachedJSON(request, query) { SharedBytes(list(users, users.search(query.search), query)) }
            case ("GET", "filter"):
                let matches = try filter(users, request)
                return cachedJSON(request, query) { SharedBytes(list(users, matches, query)) }
            case ("GET", _):
                let user = try validated(name, in: users, noun: "user")
                return try item(users, user.idText, request, query)
            case ("POST", "add"):
                return .json(JSONWriter.encode(.object(addedUser(try RequestBody.fields(of: request)))), status: 201)
            case ("PUT", _), ("PATCH", _):
                let fields = try RequestBody.fields(of: request)
                let target = updateTarget(name, fields)
                let stored = fields["id"] == nil ? try validated(target, in: users, noun: "user")
                                                 : try validated(fields["id"], in: users, noun: "user")
                return .json(JSONWriter.encode(.object(updatedUser(stored.object, fields))))
            case ("DELETE", _):
                return deleted(try validated(name, in: users, noun: "user"))
            default:
                throw resourceMethodNotAllowed(request, name, writable: true)
            }
        case 2:
            let (id, relation) = (rest[rest.startIndex], rest[rest.startIndex + 1])
            let related: (RecordCollection, RecordListing.Honours)
            switch relation {
            case "carts": related = (catalog.carts, .paging)
            case "posts": related = (catalog.posts, .pagingAndSelect)
            case "todos": related = (catalog.todos, .pagingAndSelect)
            default: throw notFound(request)
            }
            try require("GET", method, request)
            let user = try validated(id, in: users, noun: "user")
            let matches = related.0.matching("userId", equals: user.idText)
            return cachedJSON(request, query) { SharedBytes(list(related.0, matches, query, honours: related.1)) }
        default:
            throw notFound(request)
        }
    }

    /// POST /users/add: a complete user with id count + 1. Top-level fields as sent when truthy, else `""` (`null`
    /// for age, height and weight; `"user"` for role); every nested leaf the sent value when truthy, else `""`
    /// (`null` for coordinates).
    private func addedUser(_ fields: JSONObject) -> JSONObject {
        let template = catalog.userRecords.records.first?.object ?? JSONObject()
        var user = JSONObject([.init(key: "id", value: .number(JSONNumber(catalog.userRecords.nextID)))])
        for entry in template.entries where entry.key != "id" {
            if Router.userNestedKeys.contains(entry.key) {
                user[entry.key] = blankLeaves(entry.value, sent: fields[entry.key], fallback: nil)
            } else if let sent = fields[entry.key], sent.isTruthy {
                user[entry.key] = sent
            } else {
                user[entry.key] = switch entry.key {
                case "age", "height", "weight": .null
                case "role": .string("user")
                default: .string("")
                }
            }
        }
        return user
    }

    /// PUT/PATCH /users/{id}: a top-level field sent is taken even when falsy (`{"lastName": ""}` blanks it);
    /// nested leaves fall back to the stored ones when the sent value is falsy.
    private func updatedUser(_ stored: JSONObject, _ fields: JSONObject) -> JSONObject {
        var user = stored
        for entry in stored.entries where entry.key != "id" {
            guard let sent = fields[entry.key] else { continue }
            if Router.userNestedKeys.contains(entry.key) {
                user[entry.key] = blankLeaves(entry.value, sent: sent, fallback: entry.value)
            } else {
                user[entry.key] = sent
            }
        }
        return user
    }

    /// `shape`'s leaves, each the sent leaf when truthy, else the fallback's leaf, else blank.
    private func blankLeaves(_ shape: JSONValue, sent: JSONValue?, fallback: JSONValue?, key: String = "") -> JSONValue {
        guard case .object(let object) = shape else {
            if let sent, sent.isTruthy { return sent }
            if let fallback { return fallback }
            return key == "lat" || key == "lng" ? .null : .string("")
        }
        return .object(JSONObject(object.entries.map { entry in
            JSONObject.Entry(key: entry.key, value: blankLeaves(entry.value, sent: sent?[entry.key],
                                                                fallback: fallback?[entry.key], key: entry.key))
        }))
    }
}
