import UnderstudyJSON

/// `/todos…` and `/quotes…` (aliases `/todo`, `/quote`): lists, random picks, relations and the todos' simulated
/// writes; quotes are read-only (dummyjson-resources.md §5, §6).
extension Router {
    static var todoRoutes: [APIRoute] {
        let todos: @Sendable (Router, RouteContext) -> RecordCollection = { router, _ in router.catalog.todos }
        return ResourceRoutes(
            name: "todos", collection: todos, listHonours: .paging, selectsItem: false,
            reads: [APIRoute("GET", "/todos/random") { router, context throws(APIError) in
                router.randomPick(router.catalog.todos, nil, seed: context.seed)
            }],
            add: { router, context throws(APIError) in
                let fields = try RequestBody.fields(of: context.request)
                _ = try router.validated(fields["userId"], in: router.catalog.userRecords, noun: "user")
                return .json(JSONWriter.encode(.object(router.echoed(id: router.catalog.todos.nextID, fields,
                                                                     ["todo", "completed", "userId"]))), status: 201)
            },
            update: ResourceRoutes.update({ $0.todos }) { router, stored, fields throws(APIError) in
                var todo = router.mergedOnTruthiness(stored, fields, ["todo"])
                // `completed` is taken whenever it was sent, false and null included; userId is not validated.
                todo["completed"] = fields["completed"] ?? stored["completed"]
                if let sent = fields["userId"], sent.isTruthy { todo["userId"] = sent } else { todo["userId"] = stored["userId"] }
                return todo
            },
            relations: [
                APIRoute("GET", "/todos/random/{count}") { router, context throws(APIError) in
                    router.randomPick(router.catalog.todos, context.parameter, seed: context.seed)
                },
                APIRoute("GET", "/todos/user/{id}", ResourceRoutes.listing(todos, honours: .pagingAndSelect) { router, context, todos throws(APIError) in
                    let user = try router.validated(context.parameter, in: router.catalog.userRecords, noun: "user")
                    return todos.matching("userId", equals: user.idText)
                }),
            ]
        ).routes
    }

    static var quoteRoutes: [APIRoute] {
        ResourceRoutes(
            name: "quotes", collection: { router, _ in router.catalog.quotes }, listHonours: .paging,
            selectsItem: false,
            reads: [APIRoute("GET", "/quotes/random") { router, context throws(APIError) in
                router.randomPick(router.catalog.quotes, nil, seed: context.seed)
            }],
            deletes: false,
            relations: [APIRoute("GET", "/quotes/random/{count}") { router, context throws(APIError) in
                router.randomPick(router.catalog.quotes, context.parameter, seed: context.seed)
            }]
        ).routes
    }
}
