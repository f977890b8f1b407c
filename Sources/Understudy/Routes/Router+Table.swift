/// The route table: every method and path the router serves, in matching order, and the index it is searched by.
///
/// Within one first word the first row whose pattern and method match answers, so literal words (`/todos/random`)
/// come before the `{id}` rows they would otherwise fall to, as DummyJSON's Express routes are declared.
extension Router {
    static let table: [APIRoute] = [APIRoute("GET", "/") { router, _ throws(APIError) in router.indexReply }]
        + authRoutes + productRoutes + userRoutes + postRoutes + commentRoutes + todoRoutes + cartRoutes
        + quoteRoutes + recipeRoutes + statusRoutes + collectionRoutes

    /// The words served as another resource's (`/product/1` is `/products/1`).
    static let aliases = ["product": "products", "user": "users", "post": "posts", "comment": "comments",
                          "todo": "todos", "cart": "carts", "quote": "quotes", "recipe": "recipes", "https": "http"]

    /// Row numbers by the lower-cased first word of their pattern (`""` for `/`), in table order.
    static let rowsByFirstWord: [String: [Int]] = {
        var rows: [String: [Int]] = [:]
        for (row, route) in table.enumerated() {
            if route.pattern.segments.isEmpty {
                rows["", default: []].append(row)
            } else if let word = route.pattern.firstLiteral {
                rows[word, default: []].append(row)
            }
        }
        return rows
    }()

    /// The rows of your own collections (`/{collection}…`), in table order.
    static let collectionRows: [Int] = table.indices.filter { table[$0].pattern.segments.first == .collection }
}
