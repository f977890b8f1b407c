import UnderstudyJSON

/// `/todos…` and `/quotes…` (aliases `/todo`, `/quote`): lists, random picks, relations and the todos' simulated
/// writes; quotes are read-only (dummyjson-resources.md §5, §6).
extension Router {
    func todoRoute(_ request: HTTPRequest, method: String, _ rest: ArraySlice<String>,
                   _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let todos = catalog.todos
        switch rest.count {
        case 0:
            try require("GET", method, request)
            return cachedJSON(request, query) { SharedBytes(list(todos, todos.all, query, honours: .paging)) }
        case 1:
            let name = rest[rest.startIndex]
            switch (method, name) {
            case ("GET", "random"):
                return randomPick(todos, nil)
            case ("GET", _):
                return try item(todos, name, request, query, select: false)
            case ("POST", "add"):
                let fields = try RequestBody.fields(of: request)
                _ = try validated(fields["userId"], in: catalog.userRecords, noun: "user")
                return .json(JSONWriter.encode(.object(echoed(id: todos.nextID, fields, ["todo", "completed", "userId"]))),
                             status: 201)
            case ("PUT", _), ("PATCH", _):
                let fields = try RequestBody.fields(of: request)
                let stored = try todos.record(updateTarget(name, fields)).object
                var todo = mergedOnTruthiness(stored, fields, ["todo"])
                // `completed` is taken whenever it was sent, false and null included; userId is not validated.
                todo["completed"] = fields["completed"] ?? stored["completed"]
                if let sent = fields["userId"], sent.isTruthy { todo["userId"] = sent } else { todo["userId"] = stored["userId"] }
                return .json(JSONWriter.encode(.object(todo)))
            case ("DELETE", _):
                return deleted(try todos.record(name))
            default:
                throw resourceMethodNotAllowed(request, name, writable: true)
            }
        case 2 where rest[rest.startIndex] == "random":
            try require("GET", method, request)
            return randomPick(todos, rest[rest.startIndex + 1])
        case 2 where rest[rest.startIndex] == "user":
            try require("GET", method, request)
            let user = try validated(rest[rest.startIndex + 1], in: catalog.userRecords, noun: "user")
            let matches = todos.matching("userId", equals: user.idText)
            return cachedJSON(request, query) { SharedBytes(list(todos, matches, query, honours: .pagingAndSelect)) }
        default:
            throw notFound(request)
        }
    }

    func quoteRoute(_ request: HTTPRequest, method: String, _ rest: ArraySlice<String>,
                    _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let quotes = catalog.quotes
        guard rest.count < 2 || (rest.count == 2 && rest[rest.startIndex] == "random") else { throw notFound(request) }
        try require("GET", method, request)
        switch rest.count {
        case 0:
            return cachedJSON(request, query) { SharedBytes(list(quotes, quotes.all, query, honours: .paging)) }
        case 1 where rest[rest.startIndex] == "random":
            return randomPick(quotes, nil)
        case 1:
            return try item(quotes, rest[rest.startIndex], request, query, select: false)
        case 2 where rest[rest.startIndex] == "random":
            return randomPick(quotes, rest[rest.startIndex + 1])
        default:
            throw notFound(request)
        }
    }
}
