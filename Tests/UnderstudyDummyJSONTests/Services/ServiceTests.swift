import Foundation
import Testing
@testable import UnderstudyClient
@testable import UnderstudyDummyJSON
import UnderstudyTestSupport
import UnderstudyTesting

@Suite struct ServiceTests {
    private static let loginJSON = #"""
    {"accessToken":"a1","refreshToken":"r1","id":1,"username":"emilys","email":"e@x.dummyjson.com",
     "firstName":"Emily","lastName":"S","gender":"female","image":"https://dummyjson.com/icon/emilys/128"}
    """#

    @Test func listSendsTheQuery() async throws {
        let host = StubHost([.json(#"{"products":[],"total":0,"skip":5,"limit":0}"#)])
        let service = LiveProductService(client: Fixtures.client(host))
        let page = try await service.list(limit: 10, skip: 5, sortBy: "price", order: .desc)
        #expect(page.skip == 5)
        let url = try #require(host.requests.first?.url)
        #expect(url.path == "/products")
        #expect(url.query == "limit=10&skip=5&sortBy=price&order=desc")
    }

    @Test func selectDecodesTheTrimmedProducts() async throws {
        struct Price: Decodable, Sendable { let id: Int; let title: String; let price: Double }
        let host = StubHost([.json(#"{"products":[{"id":1,"title":"Lamp","price":9.5}],"total":194,"skip":0,"limit":1}"#)])
        let client = Fixtures.client(host)
        let page = try await client.send(ProductEndpoints.list(selecting: ["title", "price"], as: Price.self, limit: 1))
        #expect(page.products.map(\.price) == [9.5])
        #expect(page.total == 194)
        #expect(host.requests.first?.url?.query == "limit=1&select=title,price")
    }

    @Test func searchEscapesTheQuery() async throws {
        let host = StubHost([.json(#"{"products":[],"total":0,"skip":0,"limit":0}"#)])
        let service = LiveProductService(client: Fixtures.client(host))
        _ = try await service.search("a+b & c", limit: nil, skip: nil)
        #expect(host.requests.first?.url?.absoluteString.hasSuffix("/products/search?q=a%2Bb%20%26%20c") == true)
    }

    @Test func addPostsTheDraft() async throws {
        let host = StubHost([.json(#"{"id":195,"title":"Lamp"}"#, status: 201)])
        let service = LiveProductService(client: Fixtures.client(host))
        let added = try await service.add(ProductDraft(title: "Lamp"))
        #expect(added.id == 195)
        #expect(host.requests.first?.method == "POST")
        #expect(host.requests.first?.header("Content-Type") == "application/json")
        #expect(host.requests.first?.body == Data(#"{"title":"Lamp"}"#.utf8))
    }

    @Test func missingProductIs404WithTheServerMessage() async throws {
        let host = StubHost([.message("Product with id '999' not found", status: 404)])
        let service = LiveProductService(client: Fixtures.client(host))
        let error = await #expect(throws: APIError.self) { try await service.product(id: 999) }
        #expect(error?.kind == .httpStatus)
        #expect(error?.serverMessage == "Product with id '999' not found")
        #expect(error?.attempts == 1)
    }

    @Test func loginStoresTokensAndMeSendsTheBearer() async throws {
        let host = StubHost([.json(Self.loginJSON), .status(200)])
        let store = TokenStore()
        let client = Fixtures.client(host, auth: store)
        let auth = LiveAuthService(client: client, tokenStore: store)
        let login = try await auth.login(username: "emilys", password: "emilyspass", expiresInMins: 30)
        #expect(login.accessToken == "a1")
        #expect(await store.tokens == TokenPair(accessToken: "a1", refreshToken: "r1"))
        #expect(host.requests[0].header("Authorization") == nil)
        let body = try #require(host.requests[0].body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["username"] as? String == "emilys")
        #expect(json["password"] as? String == "emilyspass")
        #expect(json["expiresInMins"] as? Int == 30)
        _ = try? await auth.me()
        #expect(host.requests[1].header("Authorization") == "Bearer a1")
    }

    @Test func refreshAfter401UsesTheDummyJSONRefresher() async throws {
        let host = StubHost([
            .message("Token Expired!", status: 401),
            .json(#"{"accessToken":"a2","refreshToken":"r2"}"#),
            .json(#"{"id":1,"title":"ok"}"#),
        ])
        let store = TokenStore(refresher: TokenStore.dummyJSONRefresher(expiresInMins: 5))
        await store.setTokens(TokenPair(accessToken: "a1", refreshToken: "r1"))
        let client = Fixtures.client(host, auth: store)
        let item = try await client.send(Endpoint<Item>(path: "auth/items/1", requiresAuthentication: true))
        #expect(item.id == 1)
        let requests = host.requests
        #expect(requests.map { $0.url?.path ?? "" } == ["/auth/items/1", "/auth/refresh", "/auth/items/1"])
        #expect(requests[1].header("Authorization") == nil)
        let body = try #require(requests[1].body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["refreshToken"] as? String == "r1")
        #expect(json["expiresInMins"] as? Int == 5)
        #expect(requests[2].header("Authorization") == "Bearer a2")
        #expect(await store.tokens?.refreshToken == "r2")
    }

    @Test func pagesWalkTheWholeListing() async throws {
        let host = StubHost(fallback: { request in
            let skip = Int(request.url?.query?.split(separator: "&").first { $0.hasPrefix("skip=") }?.dropFirst(5) ?? "0") ?? 0
            let count = max(0, min(2, 5 - skip))
            let products = Array(repeating: Fixtures.productJSON, count: count).joined(separator: ",")
            return .json(#"{"products":[\#(products)],"total":5,"skip":\#(skip),"limit":\#(count)}"#)
        })
        let service = LiveProductService(client: Fixtures.client(host))
        let products = try await service.pages(pageSize: 2).allItems()
        #expect(products.count == 5)
        #expect(host.requests.count == 3)
        #expect(host.requests.map { $0.url?.query ?? "" } == ["limit=2&skip=0", "limit=2&skip=2", "limit=2&skip=4"])
    }
}
