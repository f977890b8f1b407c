import Foundation
import Testing
import Understudy

/// DummyJSON's other resources over a real socket, with URLSession: each resource's list, one item, its relations
/// and its id errors, decoded as a client would.
@Suite struct ResourceRouteTests {
    struct Page: Decodable {
        let total: Int
        let skip: Int
        let limit: Int
    }

    struct Identified: Decodable {
        let id: Int
    }

    @Test(arguments: [("users", 208), ("carts", 208), ("posts", 251), ("comments", 340), ("todos", 254),
                      ("quotes", 1_454), ("recipes", 50)])
    func everyResourceListsWithDummyJSONsCounts(resource: String, count: Int) async throws {
        try await withServer { _, client in
            let page = try await client.send("/\(resource)?limit=0")
            #expect(page.status == 200)
            #expect(page.header("ETag") != nil)
            #expect(try page.decode(Page.self).total == count)
            let items = try JSONSerialization.jsonObject(with: page.body) as? [String: Any]
            #expect((items?[resource] as? [Any])?.count == count)
            let one = try await client.send("/\(resource)/\(count)")
            #expect(try one.decode(Identified.self).id == count)
            let missing = try await client.send("/\(resource)/\(count + 1)")
            #expect(missing.status == 404)
        }
    }

    @Test func relationsPointAtRealItems() async throws {
        try await withServer { _, client in
            struct Post: Decodable { let id: Int; let userId: Int }
            struct Posts: Decodable { let posts: [Post] }
            let first = try await client.send("/posts/1").decode(Post.self)
            let byUser = try await client.send("/users/\(first.userId)/posts").decode(Posts.self)
            #expect(byUser.posts.contains { $0.id == 1 })
            #expect(try await client.send("/posts/user/\(first.userId)").decode(Posts.self).posts.map(\.id) == byUser.posts.map(\.id))

            struct Line: Decodable { let id: Int; let price: Double }
            struct Cart: Decodable { let id: Int; let userId: Int; let products: [Line] }
            let cart = try await client.send("/carts/7").decode(Cart.self)
            #expect(cart.userId == 7)
            for line in cart.products {
                struct Product: Decodable { let price: Double }
                #expect(try await client.send("/products/\(line.id)").decode(Product.self).price == line.price)
            }
            struct Carts: Decodable { let carts: [Cart] }
            #expect(try await client.send("/users/7/carts").decode(Carts.self).carts.map(\.id) == [7])
        }
    }

    @Test func theTwoIDFamiliesAnswerDifferently() async throws {
        try await withServer { _, client in
            let invalidUser = try await client.send("/users/abc")
            #expect(invalidUser.status == 400)
            #expect(invalidUser.message == "Invalid user id 'abc'")
            let invalidPost = try await client.send("/posts/1.5")
            #expect(invalidPost.status == 404)
            #expect(invalidPost.message == "Post with id '1.5' not found")
            let todo = try await client.send("/todos/abc")
            #expect(todo.status == 404)
            #expect(todo.message == "Todo with id 'abc' not found")
            let login = try await client.send("/users/login")
            #expect(login.message == "Invalid user id 'login'")
        }
    }

    @Test func theUsersServedAreTheUsersWhoLogIn() async throws {
        try await withServer { _, client in
            let token = try await client.accessToken(for: "emilys")
            let me = try await client.send("/auth/me", headers: ["Authorization": "Bearer \(token)"])
            let listed = try await client.send("/users/1")
            #expect(me.body == listed.body)
            let login = try await client.json("POST", "/auth/login", raw: #"{"username":"emilys","password":"emilyspass"}"#)
            let cookies = login.header("Set-Cookie") ?? ""
            #expect(!cookies.contains("Secure"))
        }
    }

    @Test func randomPicksAreDistinctAndBounded() async throws {
        try await withServer { _, client in
            let picks = try await client.send("/quotes/random/10").decode([Identified].self)
            #expect(picks.count == 10)
            #expect(Set(picks.map(\.id)).count == 10)
            #expect(try await client.send("/todos/random/2.5").decode([Identified].self).count == 3)
            #expect(try await client.send("/todos/random/11").text == "[]")
            #expect(try await client.send("/todos/random").decode(Identified.self).id >= 1)
        }
    }
}
