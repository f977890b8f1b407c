import UnderstudyJSON

/// `/products…`: the catalogue's read routes (cached, pre-encoded) and the simulated writes.
extension Router {
    /// The fields `POST /products/add`, `PUT` and `PATCH` read from a body and answer with, in DummyJSON's order.
    static let writableFields = ["title", "price", "discountPercentage", "stock", "rating", "images", "thumbnail",
                                 "description", "brand", "category"]

    /// `/products…`: the resource routes (list, search, add, one product and its writes) over the catalogue, with
    /// the category lists and the stream. Their read replies are cached, pre-encoded.
    static var productRoutes: [Route] {
        let update: Route.Handler = { router, context throws(APIError) in
            try router.updateProduct(context.request, id: context.parameter)
        }
        return [
            Route("GET", "/products") { router, context throws(APIError) in
                router.cachedJSON(context.request, context.query) {
                    SharedBytes(router.listing.body(matching: router.catalog.products.indices, query: context.query))
                }
            },
            Route("GET", "/products/search") { router, context throws(APIError) in
                router.cachedJSON(context.request, context.query) {
                    SharedBytes(router.listing.body(matching: router.listing.search(context.query.search), query: context.query))
                }
            },
            Route("GET", "/products/categories") { router, context throws(APIError) in
                router.cachedJSON(context.request, context.query) { router.catalog.categoriesBody }
            },
            Route("GET", "/products/category-list") { router, context throws(APIError) in
                router.cachedJSON(context.request, context.query) { router.catalog.categoryListBody }
            },
            // GET and HEAD only: any other method is routed like `/products/{id}` with the id `stream`.
            Route("GET", "/products/stream", action: .stream),
            Route("POST", "/products/add") { router, context throws(APIError) in try router.addProduct(context.request) },
            Route("GET", "/products/{id}") { router, context throws(APIError) in
                let product = try router.product(context.parameter)
                guard let keys = context.query.select else {
                    return router.cachedJSON(context.request, context.query) { product.encoded }
                }
                return router.cachedJSON(context.request, context.query) { SharedBytes(product.encoded(selecting: keys)) }
            },
            Route("PUT", "/products/{id}", update),
            Route("PATCH", "/products/{id}", update),
            Route("DELETE", "/products/{id}") { router, context throws(APIError) in try router.deleteProduct(id: context.parameter) },
            Route("GET", "/products/category/{slug}") { router, context throws(APIError) in
                let slug = context.parameter
                return router.cachedJSON(context.request, context.query) {
                    SharedBytes(router.listing.body(matching: router.listing.category(slug), query: context.query))
                }
            },
        ]
    }

    /// A 200 JSON reply for a read-only route, from the cache when this exact target was asked before.
    /// `make` hands over a buffer the catalogue already holds (a product, the category lists) without a copy.
    func cachedJSON(_ request: HTTPRequest, _ query: ListQuery, _ make: () -> SharedBytes) -> HTTPResponse {
        // A reply behind /auth is cached (the body is the same) but never canned: the canned path runs before
        // routing, so it would skip the token check.
        let servesDirectly = request.query["_fault"] == nil && !request.passedTokenCheck
        let entry = cache.entry(for: request.target, servesDirectly: servesDirectly,
                                delayMilliseconds: query.delayMilliseconds, make: make)
        var response = HTTPResponse.json(entry.body)
        response.etag = entry.etag
        return response
    }

    private func product(_ idText: String) throws(APIError) -> PreparedProduct {
        guard let index = catalog.productIndex(idText: idText) else {
            throw APIError(404, "Product with id '\(idText)' not found")
        }
        return catalog.products[index]
    }

    private func addProduct(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let fields = try RequestBody.fields(of: request)
        var product = JSONObject([.init(key: "id", value: .number(JSONNumber(catalog.productCount + 1)))])
        for key in Router.writableFields {
            if let value = fields[key] { product[key] = value }
        }
        return .json(JSONWriter.encode(.object(product)), status: 201)
    }

    private func updateProduct(_ request: HTTPRequest, id: String) throws(APIError) -> HTTPResponse {
        let stored = try product(id).object
        let fields = try RequestBody.fields(of: request)
        var updated = JSONObject([.init(key: "id", value: stored["id"] ?? .number(JSONNumber(JSNumber.number(id))))])
        for key in Router.writableFields {
            // DummyJSON keeps the stored value unless the sent one is truthy, so `stock: 0` cannot be set.
            if let sent = fields[key], sent.isTruthy {
                updated[key] = sent
            } else if let current = stored[key] {
                updated[key] = current
            }
        }
        return .json(JSONWriter.encode(.object(updated)))
    }

    private func deleteProduct(id: String) throws(APIError) -> HTTPResponse {
        var deleted = try product(id).object
        deleted["isDeleted"] = .bool(true)
        deleted["deletedOn"] = .string(Timestamp.iso8601(now()))
        return .json(JSONWriter.encode(.object(deleted)))
    }
}
