import UnderstudyJSON

/// `/products…` (alias `/product`): the generic resource routes over the catalogue's products, grouped by category,
/// with the stream and DummyJSON's product writes.
extension Router {
    /// The fields `POST /products/add`, `PUT` and `PATCH` read from a body and answer with, in DummyJSON's order.
    static let productWritableFields = ["title", "price", "discountPercentage", "stock", "rating", "images",
                                        "thumbnail", "description", "brand", "category"]

    /// `/products…`: list, search, one product and its writes, the category lists and a category's products, and
    /// `/products/stream` (answered by the pipeline's stream delivery). Their read replies are cached, pre-encoded.
    static var productRoutes: [APIRoute] {
        let products: @Sendable (Router, RouteContext) -> RecordCollection = { router, _ in router.catalog.products }
        let update: RouteAction.Handler = { router, context throws(APIError) in
            // The path's id, whatever the body says; DummyJSON keeps a stored value unless the sent one is truthy,
            // so `stock: 0` cannot be set.
            let stored = try router.catalog.products.record(context.parameter).object
            let fields = try RequestBody.fields(of: context.request)
            var updated = JSONObject([.init(key: "id", value: stored["id"] ?? .number(JSONNumber(JSNumber.number(context.parameter))))])
            for key in Router.productWritableFields {
                if let sent = fields[key], sent.isTruthy {
                    updated[key] = sent
                } else if let current = stored[key] {
                    updated[key] = current
                }
            }
            return .json(JSONWriter.encode(.object(updated)))
        }
        return ResourceRoutes(
            name: "products", collection: products, searches: true,
            grouping: ResourceRoutes.Grouping(field: "category", word: "category", plural: "categories", parameter: "slug"),
            // GET and HEAD only: any other method is routed like `/products/{id}` with the id `stream`.
            reads: [APIRoute("GET", "/products/stream", action: .stream)],
            add: ResourceRoutes.add { router, fields throws(APIError) in
                router.echoed(id: router.catalog.productCount + 1, fields, Router.productWritableFields)
            },
            update: update
        ).routes
    }
}
