import Foundation
import Testing
import Understudy

/// Every catalogue route over a real socket, with URLSession.
@Suite struct CatalogueRouteTests {
    @Test func listsSearchesAndCategories() async throws {
        try await withServer { _, client in
            let page = try await client.send("/products?limit=5&skip=10&select=title,price")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "application/json; charset=utf-8")
            let listed = try page.decode(ProductPageReply<ProductReply>.self)
            #expect(listed.products.map(\.id) == [11, 12, 13, 14, 15])
            #expect(listed.products.allSatisfy { $0.title != nil && $0.price != nil })
            #expect(try page.decode(ProductPageReply<JSONKeys>.self).products.allSatisfy { $0.keys == ["id", "title", "price"] })
            #expect(listed.total == 194)

            let search = try await client.send("/products/search?q=phone&limit=0")
            #expect(try search.decode(ProductPageReply<ProductReply>.self).total > 10)

            let categories = try await client.send("/products/categories")
            #expect(try categories.decode([[String: String]].self).count == 24)
            let slugs = try await client.send("/products/category-list")
            #expect(try slugs.decode([String].self).last == "womens-watches")
            let smartphones = try await client.send("/products/category/Smartphones?limit=3").decode(ProductPageReply<ProductReply>.self)
            #expect(smartphones.total == 16)
            #expect(smartphones.limit == 3)

            let alias = try await client.send("/product/1")
            #expect(try alias.decode(ProductReply.self).id == 1)
        }
    }

    @Test func errorsAreJSONWithDummyJSONsMessages() async throws {
        try await withServer { _, client in
            let missing = try await client.send("/products/195")
            #expect(missing.status == 404)
            #expect(missing.message == "Product with id '195' not found")
            let badLimit = try await client.send("/products?limit=ten")
            #expect(badLimit.status == 400)
            #expect(badLimit.message == "Invalid 'limit' - must be a number")
            let badDelay = try await client.send("/products?delay=6000")
            #expect(badDelay.message == "Delay cannot be greater than 5 seconds")
            let unknown = try await client.send("/nowhere")
            #expect(unknown.status == 404)
            #expect(unknown.header("Content-Type") == "application/json; charset=utf-8")
            let wrongMethod = try await client.send("PUT", "/products/search/x")
            #expect(wrongMethod.status == 404)
            let notAllowed = try await client.send("DELETE", "/products")
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, HEAD")
        }
    }

    @Test func writesAreSimulated() async throws {
        try await withServer { _, client in
            let added = try await client.json("POST", "/products/add", raw: #"{"title": "Desk Fan", "price": 19.5}"#)
            #expect(added.status == 201)
            #expect(added.text == #"{"id":195,"title":"Desk Fan","price":19.5}"#)
            let updated = try await client.json("PATCH", "/products/1", ["title": "Renamed"])
            #expect(try updated.decode(ProductReply.self).title == "Renamed")
            #expect(try !updated.decode(JSONKeys.self).keys.contains("reviews"))
            let replaced = try await client.json("PUT", "/products/2", ["price": 1.25])
            #expect(try replaced.decode(ProductReply.self).price == 1.25)
            let deleted = try await client.send("DELETE", "/products/3").decode(DeletedProductReply.self)
            #expect(deleted.id == 3)
            #expect(deleted.isDeleted)
            #expect(!deleted.deletedOn.isEmpty)
            let after = try await client.send("/products/1")
            #expect(try after.decode(ProductReply.self).title != "Renamed")
            let badJSON = try await client.send("POST", "/products/add", headers: ["Content-Type": "application/json"],
                                                body: Data("{\"title\":".utf8))
            #expect(badJSON.status == 400)
            #expect(badJSON.message?.hasPrefix("Invalid JSON body") == true)
        }
    }

    @Test func statusAndHealthRoutes() async throws {
        try await withServer { _, client in
            let unavailable = try await client.send("/http/503/Down%20for%20maintenance")
            #expect(unavailable.status == 503)
            #expect(unavailable.header("Content-Type") == "application/problem+json; charset=utf-8")
            #expect(try unavailable.decode(ProblemReply.self).detail == "Down for maintenance")
            let created = try await client.send("POST", "/http/201")
            #expect(created.status == 201)
            #expect(created.message == "Created")
            let health = try await client.send("PATCH", "/health")
            #expect(health.text == #"{"status":"ok","method":"PATCH"}"#)
            let unauthorized = try await client.send("/http/401")
            #expect(unauthorized.status == 401)
            #expect(unauthorized.header("WWW-Authenticate") == nil)
        }
    }

    @Test func corsReflectsTheOrigin() async throws {
        try await withServer { _, client in
            let reply = try await client.send("/products/1", headers: ["Origin": "http://localhost:3000"])
            #expect(reply.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            #expect(reply.header("Access-Control-Allow-Credentials") == "true")
            #expect(reply.header("Vary") == "Origin")
            let preflight = try await client.send("OPTIONS", "/auth/me", headers: [
                "Origin": "http://localhost:3000", "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization"])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Methods") == "GET,HEAD,PUT,PATCH,POST,DELETE")
            #expect(preflight.header("Access-Control-Allow-Headers") == "authorization")
            #expect(reply.header("X-RateLimit-Limit") == "100")
        }
    }
}
