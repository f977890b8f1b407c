import UnderstudyJSON

/// `/carts…` (alias `/cart`): lists, a user's carts and the simulated writes, whose lines are real products with
/// DummyJSON's arithmetic (dummyjson-resources.md §2).
extension Router {
    static let cartProductsMessage = "products must be array of objects, containing product id and quantity"

    /// `/carts…`: the generic resource routes (lists honour paging only, items never `select`), a user's carts, and
    /// writes whose lines are real products.
    static var cartRoutes: [APIRoute] {
        let carts: @Sendable (Router, RouteContext) -> RecordCollection = { router, _ in router.catalog.carts }
        return ResourceRoutes(
            name: "carts", collection: carts, listHonours: .paging, selectsItem: false,
            add: ResourceRoutes.add { router, fields throws(APIError) in try router.addedCart(fields) },
            update: ResourceRoutes.update({ $0.carts }) { router, stored, fields throws(APIError) in
                try router.updatedCart(stored, fields)
            },
            relations: [
                APIRoute("GET", "/carts/user/{id}", ResourceRoutes.listing(carts, honours: .paging) { router, context, carts throws(APIError) in
                    let user = try router.validated(context.parameter, in: router.catalog.userRecords, noun: "user")
                    return carts.matching("userId", equals: user.idText)
                }),
            ]
        ).routes
    }

    /// POST /carts/add. DummyJSON collects the matching products in catalogue order and gives the i-th of them the
    /// i-th quantity sent, so quantities move when the body is not in ascending id order; that is kept.
    fileprivate func addedCart(_ fields: JSONObject) throws(APIError) -> JSONObject {
        let user = try validated(fields["userId"], in: catalog.userRecords, noun: "user")
        let sent = try cartLines(fields["products"], required: true)
        let ids = sent.map { line in line["id"].map { JSNumber.number(SortKey.jsString($0)) } ?? 0 }
        let quantities = sent.map { line -> Double in
            guard let quantity = line["quantity"], quantity.isTruthy else { return 1 }
            return JSNumber.number(SortKey.jsString(quantity))
        }
        var lines: [JSONObject] = []
        for product in catalog.products.records where ids.contains(Double(product.idText) ?? .nan) {
            let quantity = lines.count < quantities.count ? quantities[lines.count] : .nan
            lines.append(cartLine(product.object, quantity: quantity))
        }
        return cart(id: .number(JSONNumber(catalog.carts.nextID)), lines, userID: user.object["id"] ?? .null)
    }

    /// PUT/PATCH /carts/{id}: with a truthy `merge` the stored lines come first; then each sent line whose product
    /// exists replaces the line with the same raw id, or is appended. The sent fields override the catalogue's.
    fileprivate func updatedCart(_ stored: JSONObject, _ fields: JSONObject) throws(APIError) -> JSONObject {
        var userID = stored["userId"] ?? .null
        if let sent = fields["userId"], sent.isTruthy {
            userID = try validated(sent, in: catalog.userRecords, noun: "user").object["id"] ?? .null
        }
        let sent = try cartLines(fields["products"], required: false)
        var keys: [String] = []
        var overlays: [String: (product: JSONObject, line: JSONObject)] = [:]
        func enter(_ line: JSONObject) {
            guard let id = line["id"], let product = catalog.products.position(of: SortKey.jsString(JSONValue.number(JSONNumber(JSNumber.number(SortKey.jsString(id))))))
            else { return }
            let key = String(decoding: JSONWriter.encode(id), as: UTF8.self)
            if overlays[key] == nil { keys.append(key) }
            overlays[key] = (catalog.products.records[product].object, line)
        }
        if let merge = fields["merge"], merge.isTruthy, case .array(let lines)? = stored["products"] {
            for case .object(let line) in lines { enter(line) }
        }
        for line in sent { enter(line) }
        let lines = keys.compactMap { overlays[$0] }.map { entry -> JSONObject in
            var merged = entry.product
            for field in entry.line.entries { merged[field.key] = field.value }
            let quantity = entry.line["quantity"].map { JSNumber.number(SortKey.jsString($0) == "null" ? "" : SortKey.jsString($0)) } ?? .nan
            return cartLine(merged, quantity: quantity.isNaN ? 1 : quantity)
        }
        return cart(id: stored["id"] ?? .null, lines, userID: userID)
    }

    /// The body's `products`: an array of objects (missing or empty is refused only on add).
    private func cartLines(_ value: JSONValue?, required: Bool) throws(APIError) -> [JSONObject] {
        guard let value else {
            if required { throw APIError(400, "products can not be empty") }
            return []
        }
        guard case .array(let items) = value else { throw APIError(400, Router.cartProductsMessage) }
        if required, items.isEmpty { throw APIError(400, "products can not be empty") }
        var lines: [JSONObject] = []
        for item in items {
            // DummyJSON answers 500 for a null element; it is the client's mistake.
            guard case .object(let line) = item else { throw APIError(400, Router.cartProductsMessage) }
            lines.append(line)
        }
        return lines
    }

    /// One computed line: `total` is price × quantity as a raw double, `discountedPrice` that less the discount,
    /// rounded to an integer (a NaN quantity makes both null, as `JSON.stringify` writes NaN).
    private func cartLine(_ product: JSONObject, quantity: Double) -> JSONObject {
        let price = product["price"].map { JSNumber.number(SortKey.jsString($0)) } ?? .nan
        let discount = product["discountPercentage"].map { JSNumber.number(SortKey.jsString($0)) } ?? .nan
        let total = price * quantity
        let discounted = (total * (1 - discount / 100)).rounded(.toNearestOrAwayFromZero)
        return JSONObject([
            .init(key: "id", value: product["id"] ?? .null),
            .init(key: "title", value: product["title"] ?? .null),
            .init(key: "price", value: product["price"] ?? .null),
            .init(key: "quantity", value: .number(JSONNumber(quantity))),
            .init(key: "total", value: .number(JSONNumber(total))),
            .init(key: "discountPercentage", value: product["discountPercentage"] ?? .null),
            .init(key: "discountedPrice", value: .number(JSONNumber(discounted))),
            .init(key: "thumbnail", value: product["thumbnail"] ?? .null),
        ])
    }

    private func cart(id: JSONValue, _ lines: [JSONObject], userID: JSONValue) -> JSONObject {
        let total = lines.reduce(0.0) { $0 + ($1["total"]?.doubleValue ?? .nan) }
        let discounted = lines.reduce(0.0) { $0 + ($1["discountedPrice"]?.doubleValue ?? .nan) }
        let quantity = lines.reduce(0.0) { $0 + ($1["quantity"]?.doubleValue ?? .nan) }
        return JSONObject([
            .init(key: "id", value: id),
            .init(key: "products", value: .array(lines.map(JSONValue.object))),
            .init(key: "total", value: .number(JSONNumber(total))),
            .init(key: "discountedTotal", value: .number(JSONNumber(discounted))),
            .init(key: "userId", value: userID),
            .init(key: "totalProducts", value: .number(JSONNumber(lines.count))),
            .init(key: "totalQuantity", value: .number(JSONNumber(quantity))),
        ])
    }
}
