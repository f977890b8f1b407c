import UnderstudyJSON

/// `/posts…` and `/comments…` (aliases `/post`, `/comment`): lists, tags, relations and simulated writes
/// (dummyjson-resources.md §3, §4).
extension Router {
    static let postWritableFields = ["title", "body", "userId", "tags", "reactions"]

    /// `/posts…`: the generic resource routes with validated ids, the tag lists and the post relations.
    static var postRoutes: [APIRoute] {
        let posts: @Sendable (Router, RouteContext) -> RecordCollection = { router, _ in router.catalog.posts }
        return ResourceRoutes(
            name: "posts", collection: posts, searches: true, ids: .validated(noun: "post"),
            grouping: ResourceRoutes.Grouping(field: "tags", word: "tag", plural: "tags", parameter: "tag"),
            add: { router, context throws(APIError) in
                let fields = try RequestBody.fields(of: context.request)
                _ = try router.validated(fields["userId"], in: router.catalog.userRecords, noun: "user")
                return .json(JSONWriter.encode(.object(router.echoed(id: router.catalog.posts.nextID, fields,
                                                                     Router.postWritableFields))), status: 201)
            },
            update: { router, context throws(APIError) in
                let posts = router.catalog.posts
                let fields = try RequestBody.fields(of: context.request)
                let stored = fields["id"] == nil ? try router.validated(context.parameter, in: posts, noun: "post")
                                                 : try router.validated(fields["id"], in: posts, noun: "post")
                return .json(JSONWriter.encode(.object(router.mergedOnTruthiness(stored.object, fields, Router.postWritableFields))))
            },
            relations: [
                APIRoute("GET", "/posts/user/{id}", ResourceRoutes.listing(posts) { router, context, posts throws(APIError) in
                    let user = try router.validated(context.parameter, in: router.catalog.userRecords, noun: "user")
                    return posts.matching("userId", equals: user.idText)
                }),
                APIRoute("GET", "/posts/{id}/comments") { router, context throws(APIError) in
                    try router.commentsOnPost(context.parameter, context.request, context.query)
                },
            ]
        ).routes
    }

    /// `/posts/{id}/comments` and `/comments/post/{id}`: the post validated, then its comments in comment order.
    func commentsOnPost(_ postID: String, _ request: HTTPRequest, _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let post = try validated(postID, in: catalog.posts, noun: "post")
        let comments = catalog.comments
        let matches = comments.matching("postId", equals: post.idText)
        return cachedJSON(request, query) { SharedBytes(list(comments, matches, query, honours: .paging)) }
    }

    /// `/comments…`: the generic resource routes (lists honour paging only, items never `select`) and a post's
    /// comments.
    static var commentRoutes: [APIRoute] {
        ResourceRoutes(
            name: "comments", collection: { router, _ in router.catalog.comments }, listHonours: .paging,
            selectsItem: false,
            add: ResourceRoutes.add { router, fields throws(APIError) in try router.addedComment(fields) },
            update: ResourceRoutes.update({ $0.comments }) { router, stored, fields throws(APIError) in
                try router.updatedComment(stored, fields)
            },
            relations: [
                APIRoute("GET", "/comments/post/{id}") { router, context throws(APIError) in
                    try router.commentsOnPost(context.parameter, context.request, context.query)
                },
            ]
        ).routes
    }

    /// `{id, username, fullName}` of a comment's author.
    private func commentAuthor(_ user: PreparedRecord) -> JSONValue {
        let first = user.object["firstName"]?.stringValue ?? ""
        let last = user.object["lastName"]?.stringValue ?? ""
        return .object(JSONObject([
            .init(key: "id", value: user.object["id"] ?? .null),
            .init(key: "username", value: user.object["username"] ?? .string("")),
            .init(key: "fullName", value: .string(first + " " + last)),
        ]))
    }

    /// POST /comments/add: body a non-empty string, then postId and userId validated; no `likes` key.
    fileprivate func addedComment(_ fields: JSONObject) throws(APIError) -> JSONObject {
        guard let body = fields["body"]?.stringValue, !body.isEmpty else { throw APIError(400, "Invalid comment body") }
        _ = try validated(fields["postId"], in: catalog.posts, noun: "post")
        let user = try validated(fields["userId"], in: catalog.userRecords, noun: "user")
        return JSONObject([
            .init(key: "id", value: .number(JSONNumber(catalog.comments.nextID))),
            .init(key: "body", value: .string(body)),
            .init(key: "postId", value: fields["postId"] ?? .null),
            .init(key: "user", value: commentAuthor(user)),
        ])
    }

    /// PUT/PATCH /comments/{id}: the stored comment; a non-empty string body replaces its body, a truthy postId is
    /// validated and kept as sent, a truthy userId is validated and rebuilds `user`.
    fileprivate func updatedComment(_ stored: JSONObject, _ fields: JSONObject) throws(APIError) -> JSONObject {
        var comment = stored
        if let body = fields["body"]?.stringValue, !body.isEmpty { comment["body"] = .string(body) }
        if let postID = fields["postId"], postID.isTruthy {
            _ = try validated(postID, in: catalog.posts, noun: "post")
            comment["postId"] = postID
        }
        if let userID = fields["userId"], userID.isTruthy {
            comment["user"] = commentAuthor(try validated(userID, in: catalog.userRecords, noun: "user"))
        }
        return comment
    }
}
