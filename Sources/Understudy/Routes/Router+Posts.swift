import UnderstudyJSON

/// `/posts…` and `/comments…` (aliases `/post`, `/comment`): lists, tags, relations and simulated writes
/// (dummyjson-resources.md §3, §4).
extension Router {
    static let postWritableFields = ["title", "body", "userId", "tags", "reactions"]

    func postRoute(_ request: HTTPRequest, method: String, _ rest: ArraySlice<String>,
                   _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let posts = catalog.posts
        switch rest.count {
        case 0:
            try require("GET", method, request)
            return cachedJSON(request, query) { SharedBytes(list(posts, posts.all, query)) }
        case 1:
            let name = rest[rest.startIndex]
            switch (method, name) {
            case ("GET", "search"):
                return cachedJSON(request, query) { SharedBytes(list(posts, posts.search(query.search), query)) }
            case ("GET", "tag-list"):
                return cachedJSON(request, query) {
                    SharedBytes(JSONWriter.encode(.array(posts.distinctElements(of: "tags").map(JSONValue.string))))
                }
            case ("GET", "tags"):
                return cachedJSON(request, query) {
                    SharedBytes(JSONWriter.encode(.array(posts.distinctElements(of: "tags").map { tag in
                        .object(JSONObject([
                            .init(key: "slug", value: .string(tag)),
                            .init(key: "name", value: .string(ProductCategory(slug: tag).name)),
                            .init(key: "url", value: .string("https://dummyjson.com/posts/tag/" + tag)),
                        ]))
                    })))
                }
            case ("GET", _):
                let post = try validated(name, in: posts, noun: "post")
                return try item(posts, post.idText, request, query)
            case ("POST", "add"):
                let fields = try RequestBody.fields(of: request)
                _ = try validated(fields["userId"], in: catalog.userRecords, noun: "user")
                return .json(JSONWriter.encode(.object(echoed(id: posts.nextID, fields, Router.postWritableFields))),
                             status: 201)
            case ("PUT", _), ("PATCH", _):
                let fields = try RequestBody.fields(of: request)
                let stored = fields["id"] == nil ? try validated(name, in: posts, noun: "post")
                                                 : try validated(fields["id"], in: posts, noun: "post")
                return .json(JSONWriter.encode(.object(mergedOnTruthiness(stored.object, fields, Router.postWritableFields))))
            case ("DELETE", _):
                return deleted(try validated(name, in: posts, noun: "post"))
            default:
                throw resourceMethodNotAllowed(request, name, writable: true)
            }
        case 2:
            let (first, second) = (rest[rest.startIndex], rest[rest.startIndex + 1])
            guard first == "tag" || first == "user" || second == "comments" else { throw notFound(request) }
            try require("GET", method, request)
            switch (first, second) {
            case ("tag", _):
                let matches = posts.matching("tags", containsIgnoringCase: second)
                return cachedJSON(request, query) { SharedBytes(list(posts, matches, query)) }
            case ("user", _):
                let user = try validated(second, in: catalog.userRecords, noun: "user")
                let matches = posts.matching("userId", equals: user.idText)
                return cachedJSON(request, query) { SharedBytes(list(posts, matches, query)) }
            case (_, "comments"):
                return try commentsOnPost(first, request, query)
            default:
                throw notFound(request)
            }
        default:
            throw notFound(request)
        }
    }

    /// `/posts/{id}/comments` and `/comments/post/{id}`: the post validated, then its comments in comment order.
    private func commentsOnPost(_ postID: String, _ request: HTTPRequest, _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let post = try validated(postID, in: catalog.posts, noun: "post")
        let comments = catalog.comments
        let matches = comments.matching("postId", equals: post.idText)
        return cachedJSON(request, query) { SharedBytes(list(comments, matches, query, honours: .paging)) }
    }

    func commentRoute(_ request: HTTPRequest, method: String, _ rest: ArraySlice<String>,
                      _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let comments = catalog.comments
        switch rest.count {
        case 0:
            try require("GET", method, request)
            return cachedJSON(request, query) { SharedBytes(list(comments, comments.all, query, honours: .paging)) }
        case 1:
            let name = rest[rest.startIndex]
            switch (method, name) {
            case ("GET", _):
                return try item(comments, name, request, query, select: false)
            case ("POST", "add"):
                return .json(JSONWriter.encode(.object(try addedComment(try RequestBody.fields(of: request)))), status: 201)
            case ("PUT", _), ("PATCH", _):
                let fields = try RequestBody.fields(of: request)
                let stored = try comments.record(updateTarget(name, fields))
                return .json(JSONWriter.encode(.object(try updatedComment(stored.object, fields))))
            case ("DELETE", _):
                return deleted(try comments.record(name))
            default:
                throw resourceMethodNotAllowed(request, name, writable: true)
            }
        case 2 where rest[rest.startIndex] == "post":
            try require("GET", method, request)
            return try commentsOnPost(rest[rest.startIndex + 1], request, query)
        default:
            throw notFound(request)
        }
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
    private func addedComment(_ fields: JSONObject) throws(APIError) -> JSONObject {
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
    private func updatedComment(_ stored: JSONObject, _ fields: JSONObject) throws(APIError) -> JSONObject {
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
