import UnderstudyJSON

/// `/users…` (alias `/user`): the users who log in, their lists, relations and simulated writes
/// (dummyjson-resources.md §1). Login and `me` are in `Router+Auth`.
extension Router {
    /// The nested objects of a user, whose leaves the writes merge one by one.
    static let userNestedKeys: Set<String> = ["hair", "address", "bank", "company", "crypto"]

    /// `/users…`: the generic resource routes over the users that log in, with their validated ids, DummyJSON's
    /// `filter`, the nested-leaf merges of their writes and their relations.
    static var userRoutes: [APIRoute] {
        let users: @Sendable (Router, RouteContext) -> RecordCollection = { router, _ in router.catalog.userRecords }
        let relations: [(String, @Sendable (Catalog) -> RecordCollection, RecordListing.Honours)] = [
            ("carts", { $0.carts }, .paging), ("posts", { $0.posts }, .pagingAndSelect),
            ("todos", { $0.todos }, .pagingAndSelect),
        ]
        return ResourceRoutes(
            name: "users", collection: users, searches: true, filters: true, ids: .validated(noun: "user"),
            add: ResourceRoutes.add { router, fields throws(APIError) in router.addedUser(fields) },
            update: { router, context throws(APIError) in
                let users = router.catalog.userRecords
                let fields = try RequestBody.fields(of: context.request)
                let target = router.updateTarget(context.parameter, fields)
                let stored = fields["id"] == nil ? try router.validated(target, in: users, noun: "user")
                                                 : try router.validated(fields["id"], in: users, noun: "user")
                return .json(JSONWriter.encode(.object(router.updatedUser(stored.object, fields))))
            },
            relations: relations.map { relation, records, honours in
                APIRoute("GET", "/users/{id}/" + relation, ResourceRoutes.listing({ router, _ in records(router.catalog) },
                                                                              honours: honours) { router, context, related throws(APIError) in
                    let user = try router.validated(context.parameter, in: router.catalog.userRecords, noun: "user")
                    return related.matching("userId", equals: user.idText)
                })
            }
        ).routes
    }

    /// POST /users/add: a complete user with id count + 1. Top-level fields as sent when truthy, else `""` (`null`
    /// for age, height and weight; `"user"` for role); every nested leaf the sent value when truthy, else `""`
    /// (`null` for coordinates).
    fileprivate func addedUser(_ fields: JSONObject) -> JSONObject {
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
    fileprivate func updatedUser(_ stored: JSONObject, _ fields: JSONObject) -> JSONObject {
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
