import Foundation
import UnderstudyClient
import UnderstudyDummyJSON

// Snippets of the README and of UnderstudyClient's and UnderstudyDummyJSON's articles.

func snippetReadmeFakeBackend() async throws {
    // snippet: readme-fake-backend
    let tokens = TokenStore(refresher: TokenStore.dummyJSONRefresher())
    let client = APIClient(baseURL: URL(string: "http://localhost:8080")!, auth: tokens)   // 3 attempts, backoff
    _ = try await LiveAuthService(client: client, tokenStore: tokens).login(username: "emilys", password: "emilyspass")
    for try await page in LiveProductService(client: client).pages(pageSize: 50) {   // 503s are retried for you
        print(page.skip, page.products.map(\.title))
    }
    // end
}

func snippetClosureOverride() {
    // snippet: closure-override
    var products = ProductsClient.failing
    products.product = { _ throws(APIError) in PreviewData.products[0] }
    // end
    _ = products
}

func snippetETagCache() {
    // snippet: etag-cache
    let configuration = APIClient.Configuration(baseURL: URL(string: "http://localhost:8080")!,
                                                etagCache: ETagCache(maxEntries: 256, maxBytes: 4 << 20))
    let client = APIClient(configuration: configuration)
    // end
    _ = client
}
