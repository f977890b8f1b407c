import Foundation
import Testing
import UnderstudyClient
import UnderstudyDummyJSON
import UnderstudyTestSupport
import UnderstudyTesting

@Suite struct ProductsClientTests {
    @Test func previewAnswersFromTheBuiltInProducts() async throws {
        let client = ProductsClient.preview
        let page = try await client.list(2, 1, nil, nil)
        #expect(page.products.map(\.id) == [2, 3])
        #expect(page.total == PreviewData.products.count)
        #expect(try await client.product(3).title == "Calvin Klein CK One")
        #expect(try await client.search("MASCARA", nil, nil).products.map(\.id) == [1])
        #expect(try await client.categoryList() == ["beauty", "fragrances"])
        #expect(try await client.productsInCategory("fragrances", nil, nil).products.map(\.id) == [3])
        #expect(try await client.update(1, ProductDraft(price: 1)).price == 1)
        #expect(try await client.delete(2).isDeleted)
    }

    @Test func previewAnswersAnUnknownIdWithA404() async {
        let error = await #expect(throws: APIError.self) { try await ProductsClient.preview.product(999) }
        #expect(error?.kind == .httpStatus)
        #expect(error?.status == 404)
    }

    @Test func failingNamesTheClosure() async {
        let error = await #expect(throws: APIError.self) { try await ProductsClient.failing.product(1) }
        #expect(error?.kind == .unimplemented)
        #expect(error?.underlying?.contains("ProductsClient.product") == true)
        let list = await #expect(throws: APIError.self) { try await ProductsClient.failing.categories() }
        #expect(list?.underlying?.contains("ProductsClient.categories") == true)
    }

    @Test func aCopyOverridesOneClosure() async throws {
        var client = ProductsClient.failing
        client.product = { id throws(APIError) in PreviewData.products[id - 1] }
        #expect(try await client.product(2).id == 2)
        await #expect(throws: APIError.self) { try await client.list(nil, nil, nil, nil) }
    }

    @Test func liveGoesThroughTheAPIClient() async throws {
        let host = StubHost([.json(Fixtures.productJSON)])
        let client = ProductsClient.live(Fixtures.client(host))
        #expect(try await client.product(1).title == "Lamp")
        #expect(host.requests.first?.url?.path == "/products/1")
    }
}

@Suite struct AuthClientTests {
    @Test func previewLogsInOnlyAsTheSampleUser() async throws {
        let client = AuthClient.preview
        #expect(try await client.login("emilys", "emilyspass", nil).username == "emilys")
        #expect(try await client.me() == PreviewData.user)
        #expect(try await client.refresh(nil).refreshToken == PreviewData.login.refreshToken)
        let error = await #expect(throws: APIError.self) { try await client.login("emilys", "wrong", nil) }
        #expect(error?.status == 400)
    }

    @Test func failingNamesTheClosure() async {
        let error = await #expect(throws: APIError.self) { try await AuthClient.failing.me() }
        #expect(error?.kind == .unimplemented)
        #expect(error?.underlying?.contains("AuthClient.me") == true)
    }

    @Test func liveKeepsTheTokensInTheClientsStore() async throws {
        let host = StubHost([.json(#"""
        {"accessToken":"a","refreshToken":"r","id":1,"username":"emilys","email":"e","firstName":"Emily",
         "lastName":"Johnson","gender":"female","image":"i"}
        """#)])
        let tokens = TokenStore()
        let client = AuthClient.live(Fixtures.client(host, auth: tokens))
        _ = try await client.login("emilys", "emilyspass", nil)
        #expect(await tokens.tokens?.accessToken == "a")
    }
}
