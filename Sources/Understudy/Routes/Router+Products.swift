import UnderstudyJSON

/// `/products…`: the catalogue's read routes (cached, pre-encoded) and the simulated writes.
extension Router {
    /// The fields `POST /products/add`, `PUT` and `PATCH` read from a body and answer with, in DummyJSON's order.
    static let writableFields = ["title", "price", "discountPercentage", "stock", "rating", "images", "thumbnail",
                                 "description", "brand", "category"]

    func productRoute(_ request: HTTPRequest, method: String, _ rest: ArraySlice<String>,
                      _ query: ListQuery) throws(APIError) -> HTTPResponse {
        switch rest.count {
        case 0:
            try require("GET", method, request)
            return cachedJSON(request, query) { SharedBytes(listing.body(matching: catalog.products.indices, query: query)) }
        case 1:
            let name = rest[rest.startIndex]
            switch (method, name) {
            case ("GET", "search"):
                return cachedJSON(request, query) { SharedBytes(listing.body(matching: listing.search(query.search), query: query)) }
            case ("GET", "categories"):
                return cachedJSON(request, query) { catalog.categoriesBody }
            case ("GET", "category-list"):
                return cachedJSON(request, query) { catalog.categoryListBody }
            case ("GET", _):
                let product = try self.product(name)
                guard let keys = query.select else {
                    return cachedJSON(request, query) { product.encoded }
                }
                return cachedJSON(request, query) { SharedBytes(product.encoded(selecting: keys)) }
            case ("POST", "add"):
                return try addProduct(request)
            case ("PUT", _), ("PATCH", _):
                return try updateProduct(request, id: name)
            case ("DELETE", _):
                return try deleteProduct(id: name)
            default:
                // Allow names every method this URL answers without a 405: on `add` GET, PUT, PATCH and DELETE reach
                // the `/{id}` routes (and answer their 404), as they do on any other word.
                throw methodNotAllowed(request, allowed: name == "add" ? ["GET", "POST", "PUT", "PATCH", "DELETE"]
                                                                       : ["GET", "PUT", "PATCH", "DELETE"])
            }
        case 2 where rest[rest.startIndex] == "category":
            let slug = rest[rest.startIndex + 1]
            try require("GET", method, request)
            return cachedJSON(request, query) { SharedBytes(listing.body(matching: listing.category(slug), query: query)) }
        default:
            throw notFound(request)
        }
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
