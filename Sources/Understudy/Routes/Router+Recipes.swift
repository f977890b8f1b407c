import UnderstudyJSON

/// `/recipes…` (alias `/recipe`): lists, search by name, tags and meal types, simulated writes
/// (dummyjson-resources.md §7). Adding a recipe answers 200, not 201, as DummyJSON does.
extension Router {
    static let recipeFields = ["name", "ingredients", "instructions", "prepTimeMinutes", "cookTimeMinutes", "servings",
                               "difficulty", "cuisine", "caloriesPerServing", "tags", "userId", "image", "rating",
                               "reviewCount", "mealType"]

    /// `/recipes…`: the generic resource routes with search by name, the tag list, tags and meal types.
    static var recipeRoutes: [APIRoute] {
        let recipes: @Sendable (Router, RouteContext) -> RecordCollection = { router, _ in router.catalog.recipes }
        let byElement: (String, String) -> APIRoute = { word, field in
            APIRoute("GET", "/recipes/\(word)/{tag}", ResourceRoutes.listing(recipes) { _, context, recipes throws(APIError) in
                recipes.matching(field, containsIgnoringCase: context.parameter)
            })
        }
        return ResourceRoutes(
            name: "recipes", collection: recipes, searches: true,
            reads: [APIRoute("GET", "/recipes/tags") { router, context throws(APIError) in
                router.cachedJSON(context.request, context.query) {
                    SharedBytes(JSONWriter.encode(.array(router.catalog.recipes.distinctElements(of: "tags").map(JSONValue.string))))
                }
            }],
            // Adding a recipe answers 200, not 201, as DummyJSON does.
            add: { router, context throws(APIError) in
                let fields = try RequestBody.fields(of: context.request)
                return .json(JSONWriter.encode(.object(router.echoed(id: router.catalog.recipes.nextID, fields, Router.recipeFields))))
            },
            update: ResourceRoutes.update({ $0.recipes }) { router, stored, fields throws(APIError) in
                router.mergedOnTruthiness(stored, fields, Router.recipeFields)
            },
            relations: [byElement("tag", "tags"), byElement("meal-type", "mealType")]
        ).routes
    }
}
