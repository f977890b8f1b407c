import Testing
@testable import Understudy
import UnderstudyJSON

/// The route table and DummyJSON's messages, without a socket.
@Suite struct RouterTests {
    static let now = 1_800_000_000.0
    let router = Router(catalog: .standard, tokens: TokenService(secret: "test-secret"), now: { RouterTests.now })

    func send(_ method: String, _ target: String, headers: HTTPHeaders = [:], json: String? = nil) -> RoutedResponse {
        var headers = headers
        if json != nil { headers.add("Content-Type", "application/json") }
        return router.route(HTTPRequest(method: method, target: target, headers: headers, body: Array((json ?? "").utf8)))
    }

    func body(_ routed: RoutedResponse) -> JSONValue? {
        switch routed.response.body {
        case .empty: nil
        case .bytes(let bytes): try? JSONParser.parse(bytes)
        case .shared(let shared): try? JSONParser.parse(shared.bytes)
        }
    }

    func message(_ routed: RoutedResponse) -> String? {
        body(routed)?["message"]?.stringValue
    }

    func token(for username: String = "emilys", minutes: Int = 60) -> String {
        let user = Catalog.standard.users.user(named: username)!
        return TokenService(secret: "test-secret").sign(claims: user.tokenClaims, issuedAt: Int(RouterTests.now),
                                                        lifetimeSeconds: minutes * 60)
    }

    @Test(arguments: ["abc", "0", "195", "01", "1.0", "add", "search%20x"])
    func unknownProductIdsAre404(id: String) {
        let routed = send("GET", "/products/\(id)")
        #expect(routed.response.status == 404)
        #expect(message(routed) == "Product with id '\(id.removingPercentEncodingForTest)' not found")
    }

    @Test func productByIdWithSelect() {
        let routed = send("GET", "/products/5?select=title,price")
        #expect(routed.response.status == 200)
        guard case .object(let object)? = body(routed) else { return }
        #expect(object.keys == ["id", "title", "price"])
        #expect(routed.response.etag?.hasPrefix("W/\"") == true)
    }

    @Test func categoryRoutes() {
        guard case .array(let categories)? = body(send("GET", "/products/categories")) else { return }
        #expect(categories.count == 24)
        #expect(categories.first?["name"]?.stringValue == "Beauty")
        guard case .array(let slugs)? = body(send("GET", "/product/category-list")) else { return }
        #expect(slugs.first == .string("beauty"))
        #expect(body(send("GET", "/products/category/SMARTPHONES?limit=2"))?["total"]?.intValue == 16)
        let unknown = body(send("GET", "/products/category/nope"))
        #expect(unknown.map { String(decoding: $0.jsonBytes, as: UTF8.self) } == #"{"products":[],"total":0,"skip":0,"limit":0}"#)
        let bare = send("GET", "/products/category")
        #expect(bare.response.status == 404)
        #expect(message(bare) == "Product with id 'category' not found")
    }

    @Test func searchEmptyMatchesAll() {
        #expect(body(send("GET", "/products/search"))?["total"]?.intValue == 194)
        #expect(body(send("GET", "/products/search?q=PHONE"))?["total"]?.intValue == Catalog.standard.products.search("phone").count)
    }

    @Test func everyRouteValidatesTheQuery() {
        let routed = send("GET", "/test?limit=x&delay=100")
        #expect(routed.response.status == 400)
        #expect(routed.delayMilliseconds == 0)
        #expect(message(routed) == "Invalid 'limit' - must be a number")
    }

    @Test func delayAppliesToRouteErrorsToo() {
        #expect(send("GET", "/products/999?delay=250").delayMilliseconds == 250)
        #expect(send("GET", "/products?delay=0").delayMilliseconds == 0)
    }

    @Test func trailingSlashRedirectsKeepingTheQuery() {
        let routed = send("GET", "/products/?limit=5")
        #expect(routed.response.status == 301)
        #expect(routed.response.headers["Location"] == "/products?limit=5")
    }

    @Test func wrongMethodIs405AndUnknownIs404() {
        let wrong = send("POST", "/products/1")
        #expect(wrong.response.status == 405)
        #expect(wrong.response.headers["Allow"] == "GET, PUT, PATCH, DELETE, HEAD")
        #expect(send("GET", "/auth/login").response.status == 405)
        #expect(send("DELETE", "/products").response.status == 405)
        #expect(send("TRACE", "/products/add").response.headers["Allow"] == "GET, POST, PUT, PATCH, DELETE, HEAD")
        let missing = send("GET", "/widgets")
        #expect(missing.response.status == 404)
        #expect(message(missing) == "Route GET /widgets not found")
    }

    @Test func addEchoesOnlyKnownFieldsWithTheirTypes() {
        let routed = send("POST", "/products/add", json: #"{"price":"12","title":"Kettle","tags":["x"],"brand":"Acme"}"#)
        #expect(routed.response.status == 201)
        #expect(body(routed).map { String(decoding: $0.jsonBytes, as: UTF8.self) } == #"{"id":195,"title":"Kettle","price":"12","brand":"Acme"}"#)
        #expect(body(send("POST", "/products/add")).map { String(decoding: $0.jsonBytes, as: UTF8.self) } == #"{"id":195}"#)
        let invalid = send("POST", "/products/add", json: "{nope")
        #expect(invalid.response.status == 400)
        #expect(message(invalid)?.hasPrefix("Invalid JSON body: line 1, column 2") == true)
    }

    @Test func updateKeepsStoredValuesForFalsyOnes() {
        let routed = send("PATCH", "/products/16", json: #"{"title":"Renamed","stock":0,"price":""}"#)
        guard case .object(let object)? = body(routed) else { return }
        #expect(object.keys == ["id", "title", "price", "discountPercentage", "stock", "rating", "images", "thumbnail",
                                "description", "category"])
        #expect(object["title"] == .string("Renamed"))
        #expect(object["stock"] == Catalog.standard.products.records[15].object["stock"])
        #expect(send("PUT", "/products/999", json: "{}").response.status == 404)
    }

    @Test func deleteMarksTheProduct() {
        guard case .object(let object)? = body(send("DELETE", "/products/3")) else { return }
        #expect(object["isDeleted"] == .bool(true))
        #expect(object["deletedOn"] == .string("2027-01-15T08:00:00.000Z"))
        #expect(object.keys.count == Catalog.standard.products.records[2].object.keys.count + 2)
    }

    @Test func httpStatusRoute() {
        let teapot = send("GET", "/http/418/Short%20and%20stout")
        #expect(teapot.response.status == 418)
        #expect(teapot.response.headers["Content-Type"] == "application/problem+json; charset=utf-8")
        #expect(body(teapot).map { String(decoding: $0.jsonBytes, as: UTF8.self) } == #"{"status":418,"title":"Short and stout","type":"about:blank","detail":"Short and stout","message":"Short and stout"}"#)
        #expect(body(send("POST", "/https/202"))?["message"] == .string("Accepted"))
        #expect(send("GET", "/http/204").response.body.count == 0)
        #expect(message(send("GET", "/http/abc")) == "Status code 'abc' is invalid")
        #expect(message(send("GET", "/http/299")) == "Status code '299' is not supported")
        #expect(message(send("GET", "/http/1000")) == "Status code '1000' is not supported")
        #expect(send("GET", "/http/0200").response.status == 200)
        #expect(send("GET", "/http").response.status == 404)
    }

    @Test func healthAnswersAnyMethod() {
        #expect(body(send("DELETE", "/ping")).map { String(decoding: $0.jsonBytes, as: UTF8.self) } == #"{"status":"ok","method":"DELETE"}"#)
        #expect(send("OPTIONS", "/anything").response.status == 204)
    }
}

extension String {
    var removingPercentEncodingForTest: String {
        QueryParameters.decodePath(Substring(self))
    }
}
