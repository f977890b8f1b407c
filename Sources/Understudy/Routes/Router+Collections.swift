import UnderstudyJSON

/// Your own collections (`--fixtures DIR/<name>.json`, served at `/<name>`): the list engine, search over every
/// string field, DummyJSON's `filter`, one item, and simulated writes, with the same messages as the built-in
/// resources.
extension Router {
    /// `/{collection}…`: the generic resource routes over one of your own collections, whose writes take the body's
    /// fields as sent.
    static var collectionRoutes: [APIRoute] {
        let own: @Sendable (Router, RouteContext) -> RecordCollection = { router, context in
            guard let collection = context.collection else { preconditionFailure("a {collection} row matched no collection") }
            return collection
        }
        return ResourceRoutes(
            name: "{collection}", collection: own, searches: true, filters: true,
            add: { router, context throws(APIError) in try router.added(own(router, context), context.request, status: 201) },
            update: { router, context throws(APIError) in
                var updated = try own(router, context).record(context.parameter).object
                for entry in try RequestBody.fields(of: context.request).entries where entry.key != "id" {
                    updated[entry.key] = entry.value
                }
                return .json(JSONWriter.encode(.object(updated)))
            }
        ).routes
    }

    /// The list wrapper over `matches`, named after the collection.
    func list(_ collection: RecordCollection, _ matches: some RandomAccessCollection<Int>, _ query: ListQuery,
              honours: RecordListing.Honours = .all) -> [UInt8] {
        RecordListing.body(collection.name, collection.records, matching: matches, query: query, honours: honours,
                           columns: collection.columns)
    }

    /// One item (`select` honoured when asked), from the cache; a plain 404 for an unknown id.
    func item(_ collection: RecordCollection, _ idText: String, _ request: HTTPRequest, _ query: ListQuery,
              select: Bool = true) throws(APIError) -> HTTPResponse {
        let record = try collection.record(idText)
        guard select, let keys = query.select else { return cachedJSON(request, query) { record.encoded } }
        return cachedJSON(request, query) { SharedBytes(record.encoded(selecting: keys)) }
    }

    /// `?key=&value=`: items where the dotted path `key` holds a truthy value written exactly as `value`. Missing
    /// either gives no items. A repeated `key` crashes DummyJSON (500 `keys.split is not a function`); it is the
    /// client's mistake, so Understudy answers 400.
    func filter(_ collection: RecordCollection, _ request: HTTPRequest) throws(APIError) -> [Int] {
        if request.query.values("key").count > 1 { throw APIError(400, "Invalid 'key' - must be a string") }
        guard let terms = Router.filterTerms(request.query) else { return [] }
        return collection.filter(path: terms.key, value: terms.value)
    }

    /// The one key and one value a filter reads; nil when either is missing or repeated (no items, or the 400).
    static func filterTerms(_ query: QueryParameters) -> (key: String, value: String)? {
        let keys = query.values("key")
        let values = query.values("value")
        guard keys.count == 1, values.count == 1 else { return nil }
        return (keys[0], values[0])
    }

    /// A simulated add: the next id, then the body's fields as sent.
    func added(_ collection: RecordCollection, _ request: HTTPRequest, status: Int) throws(APIError) -> HTTPResponse {
        var object = JSONObject([.init(key: "id", value: .number(JSONNumber(collection.nextID)))])
        for entry in try RequestBody.fields(of: request).entries where entry.key != "id" {
            object[entry.key] = entry.value
        }
        return .json(JSONWriter.encode(.object(object)), status: status)
    }

    /// A simulated delete: the stored item with `isDeleted` and `deletedOn` (now) appended.
    func deleted(_ record: PreparedRecord) -> HTTPResponse {
        var object = record.object
        object["isDeleted"] = .bool(true)
        object["deletedOn"] = .string(Timestamp.iso8601(now()))
        return .json(JSONWriter.encode(.object(object)))
    }
}
