import UnderstudyJSON

/// The generic routes every collection-backed resource shares (list, search, filter, one item, simulated writes),
/// each resource's quirks given as data: which list parameters it honours, how its ids are checked, which writes it
/// takes and what they answer.
struct ResourceRoutes {
    /// How `/{name}/{id}` finds its item.
    enum IDCheck: Sendable {
        /// The plain 404 (`Todo with id 'x' not found`).
        case plain
        /// DummyJSON's validated family (users and posts): 400 for a non-number, then the 404 named after `noun`.
        case validated(noun: String)
    }

    /// The resource's name as its routes spell it (`todos`, or `{collection}` for your own collections).
    var name: String
    /// The collection a request of this resource reads.
    var collection: @Sendable (Router, RouteContext) -> RecordCollection
    /// The list parameters `GET /{name}` honours.
    var listHonours: RecordListing.Honours = .all
    var searches = false
    var filters = false
    var ids: IDCheck = .plain
    /// Whether `select` applies to one item.
    var selectsItem = true
    /// The field that groups the items, with its routes (a product's category, a post's tags).
    var grouping: Grouping?
    /// Read routes of one literal word (`/todos/random`), matched before `/{name}/{id}`.
    var reads: [APIRoute] = []
    var add: RouteAction.Handler?
    var update: RouteAction.Handler?
    /// Whether DELETE answers the item marked deleted (false: the resource is read-only).
    var deletes = true
    /// Routes of two segments and more (`/posts/{id}/comments`).
    var relations: [APIRoute] = []

    /// The rows of the route table, in matching order.
    var routes: [APIRoute] {
        let base = "/" + name
        let collection = self.collection
        let listHonours = self.listHonours
        var routes = [APIRoute("GET", base) { router, context throws(APIError) in
            let records = collection(router, context)
            return router.cachedJSON(context.request, context.query) {
                SharedBytes(router.list(records, records.all, context.query, honours: listHonours))
            }
        }]
        if searches {
            routes.append(APIRoute("GET", base + "/search") { router, context throws(APIError) in
                let records = collection(router, context)
                return router.cachedJSON(context.request, context.query) {
                    SharedBytes(router.list(records, records.search(context.query.search), context.query))
                }
            })
        }
        if filters {
            routes.append(APIRoute("GET", base + "/filter") { router, context throws(APIError) in
                let records = collection(router, context)
                let matches = try router.filter(records, context.request)
                return router.cachedJSON(context.request, context.query) {
                    SharedBytes(router.list(records, matches, context.query))
                }
            })
        }
        if let grouping { routes += grouping.reads(name, collection) }
        routes += reads
        if let add { routes.append(APIRoute("POST", base + "/add", add)) }
        let ids = self.ids
        let selectsItem = self.selectsItem
        routes.append(APIRoute("GET", base + "/{id}") { router, context throws(APIError) in
            let records = collection(router, context)
            let id = try ResourceRoutes.record(context.parameter, in: records, ids, router).idText
            return try router.item(records, id, context.request, context.query, select: selectsItem)
        })
        if let update {
            routes.append(APIRoute("PUT", base + "/{id}", update))
            routes.append(APIRoute("PATCH", base + "/{id}", update))
        }
        if deletes {
            routes.append(APIRoute("DELETE", base + "/{id}") { router, context throws(APIError) in
                router.deleted(try ResourceRoutes.record(context.parameter, in: collection(router, context), ids, router))
            })
        }
        if let grouping { routes.append(grouping.members(name, collection)) }
        return routes + relations
    }

    /// The item `/{name}/{id}` names, checked as the resource checks its ids.
    static func record(_ id: String, in records: RecordCollection, _ check: IDCheck,
                       _ router: Router) throws(APIError) -> PreparedRecord {
        switch check {
        case .plain: try records.record(id)
        case .validated(let noun): try router.validated(id, in: records, noun: noun)
        }
    }

    /// A list of `records` narrowed by a route's own filter (a relation, a tag), from the cache.
    static func listing(_ records: @escaping @Sendable (Router, RouteContext) -> RecordCollection,
                        honours: RecordListing.Honours = .all,
                        _ matches: @escaping @Sendable (Router, RouteContext, RecordCollection) throws(APIError) -> [Int])
        -> RouteAction.Handler {
        { router, context throws(APIError) in
            let collection = records(router, context)
            let found = try matches(router, context, collection)
            return router.cachedJSON(context.request, context.query) {
                SharedBytes(router.list(collection, found, context.query, honours: honours))
            }
        }
    }

    /// PUT/PATCH of a resource with plain ids: the stored item the body's `id` (else the path) names, merged with
    /// the body by `merge`.
    static func update(_ records: @escaping @Sendable (Catalog) -> RecordCollection,
                       _ merge: @escaping @Sendable (Router, JSONObject, JSONObject) throws(APIError) -> JSONObject)
        -> RouteAction.Handler {
        { router, context throws(APIError) in
            let fields = try RequestBody.fields(of: context.request)
            let stored = try records(router.catalog).record(router.updateTarget(context.parameter, fields)).object
            return .json(JSONWriter.encode(.object(try merge(router, stored, fields))))
        }
    }

    /// A simulated add that answers `make`'s object for the body's fields, with `status`.
    static func add(status: Int = 201, _ make: @escaping @Sendable (Router, JSONObject) throws(APIError) -> JSONObject)
        -> RouteAction.Handler {
        { router, context throws(APIError) in
            .json(JSONWriter.encode(.object(try make(router, try RequestBody.fields(of: context.request)))), status: status)
        }
    }
}
