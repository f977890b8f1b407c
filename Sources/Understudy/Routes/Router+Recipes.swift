import UnderstudyJSON

/// `/recipes…` (alias `/recipe`): lists, search by name, tags and meal types, simulated writes
/// (dummyjson-resources.md §7). Adding a recipe answers 200, not 201, as DummyJSON does.
extension Router {
    static let recipeFields = ["name", "ingredients", "instructions", "prepTimeMinutes", "cookTimeMinutes", "servings",
                               "difficulty", "cuisine", "caloriesPerServing", "tags", "userId", "image", "rating",
                               "reviewCount", "mealType"]

    func recipeRoute(_ request: HTTPRequest, method: String, _ rest: ArraySlice<String>,
                     _ query: ListQuery) throws(APIError) -> HTTPResponse {
        let recipes = catalog.recipes
        switch rest.count {
        case 0:
            try require("GET", method, request)
            return cachedJSON(request, query) { SharedBytes(list(recipes, recipes.all, query)) }
        case 1:
            let name = rest[rest.startIndex]
            switch (method, name) {
            case ("GET", "search"):
                return cachedJSON(request, query) { SharedBytes(list(recipes, recipes.search(query.search), query)) }
            case ("GET", "tags"):
                return cachedJSON(request, query) {
                    SharedBytes(JSONWriter.encode(.array(recipes.distinctElements(of: "tags").map(JSONValue.string))))
                }
            case ("GET", _):
                return try item(recipes, name, request, query)
            case ("POST", "add"):
                let fields = try RequestBody.fields(of: request)
                return .json(JSONWriter.encode(.object(echoed(id: recipes.nextID, fields, Router.recipeFields))))
            case ("PUT", _), ("PATCH", _):
                let fields = try RequestBody.fields(of: request)
                let stored = try recipes.record(updateTarget(name, fields)).object
                return .json(JSONWriter.encode(.object(mergedOnTruthiness(stored, fields, Router.recipeFields))))
            case ("DELETE", _):
                return deleted(try recipes.record(name))
            default:
                throw resourceMethodNotAllowed(request, name, writable: true)
            }
        case 2 where rest[rest.startIndex] == "tag" || rest[rest.startIndex] == "meal-type":
            try require("GET", method, request)
            let field = rest[rest.startIndex] == "tag" ? "tags" : "mealType"
            let matches = recipes.matching(field, containsIgnoringCase: rest[rest.startIndex + 1])
            return cachedJSON(request, query) { SharedBytes(list(recipes, matches, query)) }
        default:
            throw notFound(request)
        }
    }
}
