import Foundation
import Testing
import UnderstudyClient
import UnderstudyTestSupport
@testable import UnderstudyTesting
import UnderstudyDummyJSON

/// The golden cases shipped as UnderstudyTesting's resources, replayed through the real client by ``StubHost``: what
/// the server is held to is what these unit tests decode, with no server running.
@Suite struct ContractReplayTests {
    static func host(_ names: String...) throws -> StubHost {
        StubHost(contractCases: try names.map(ContractCase.named))
    }

    /// Every case the generator writes ships in the bundle, and each either loads or says why it cannot be replayed.
    @Test func theBundleHoldsEveryCase() throws {
        let names = ContractCase.bundledNames
        #expect(names.count >= 250)
        #expect(names.contains("products-by-id"))
        for name in names {
            do {
                _ = try ContractCase.named(name)
            } catch let error as ContractCase.LoadError {
                #expect(error.reason.contains("no body"), "\(name): \(error)")
            }
        }
    }

    @Test func anUnknownNameIsALoadError() {
        #expect(throws: ContractCase.LoadError.self) { try ContractCase.named("no-such-case") }
    }

    @Test func aHostCanBeMadeFromNames() async throws {
        let host = try StubHost(contractCasesNamed: "products-by-id")
        let product = try await LiveProductService(client: Fixtures.client(host)).product(id: 1)
        #expect(product.id == 1)
    }

    @Test func aProductDecodesFromItsCase() async throws {
        let host = try Self.host("products-by-id", "products-by-id-without-brand")
        let service = LiveProductService(client: Fixtures.client(host))
        let product = try await service.product(id: 1)
        #expect(product.id == 1)
        #expect(product.title == "Silk Veil Foundation")
        #expect(product.price == 17.89)
        #expect(product.brand == "Velvet Finch")
        #expect(product.reviews.count == 3)
    }

    @Test func aMissingProductIsA404WithTheServersMessage() async throws {
        let host = try Self.host("products-by-id", "products-by-id-not-found-195")
        let service = LiveProductService(client: Fixtures.client(host))
        let error = await #expect(throws: APIError.self) { try await service.product(id: 195) }
        #expect(error?.kind == .httpStatus)
        #expect(error?.status == 404)
        #expect(error?.serverMessage == "Product with id '195' not found")
    }

    /// The case that pins the most headers wins: a bearer token reaches `auth-me`, no token `auth-me-missing-token`.
    @Test func theTokenDecidesBetweenTheUserAndThe401() async throws {
        let host = try Self.host("auth-me", "auth-me-missing-token")
        let store = TokenStore()
        await store.setTokens(TokenPair(accessToken: "any.signed.token", refreshToken: "r"))
        let user = try await Fixtures.client(host, auth: store).send(AuthEndpoints.me())
        #expect(user.username == "emilys")

        let error = await #expect(throws: APIError.self) { try await Fixtures.client(host).send(AuthEndpoints.me()) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.status == 401)
        #expect(error?.serverMessage == "Access Token is required")
        #expect(host.requests.count == 2)
    }

    @Test func aListPageAndAnInjectedFaultReplayToo() async throws {
        let host = try Self.host("products-list-select", "fault-status-503-default-message")
        let client = Fixtures.client(host, retry: .never)
        let page = try await client.send(ProductEndpoints.list(selecting: ["title", "price"], as: Item.self, limit: 2))
        #expect(page.products.map(\.id) == [1, 2])
        #expect(page.total == 194)
        var faulted = ProductEndpoints.product(id: 1)
        faulted.headers["X-Understudy-Fault"] = "status=503"
        let error = await #expect(throws: APIError.self) { try await client.send(faulted) }
        #expect(error?.kind == .serverError)
        #expect(error?.serverMessage == "Service Unavailable")
    }

    @Test func aRequestNoCaseDescribesIsA404() async throws {
        let host = try Self.host("products-by-id")
        let error = await #expect(throws: APIError.self) { try await LiveProductService(client: Fixtures.client(host)).product(id: 2) }
        #expect(error?.serverMessage == "no contract case for GET /products/2")
    }

    @Test func aCaseWithoutARecordedBodyIsRefused() {
        #expect(throws: ContractCase.LoadError.self) { try Self.host("auth-login") }
    }

    @Test func placeholdersMatchAnyToken() {
        #expect(ContractCase.same("Bearer abc.def.ghi", "Bearer {{token:emilys}}"))
        #expect(ContractCase.same("accessToken=x; theme=dark", "accessToken={{token:emilys}}; theme=dark"))
        #expect(!ContractCase.same("Bearer ", "Bearer {{token:emilys}}"))
        #expect(!ContractCase.same("Basic abc", "Bearer {{token:emilys}}"))
    }
}
