import Testing
@testable import Understudy
import UnderstudyJSON

@Suite struct AuthRouteTests {
    let routes = RouterTests()

    @Test func loginReturnsTokensInDummyJSONsOrderWithCookies() throws {
        let routed = routes.send("POST", "/auth/login", json: #"{"username":"EMILYS","password":"emilyspass","expiresInMins":30}"#)
        #expect(routed.response.status == 200)
        guard case .object(let object)? = routes.body(routed) else { return }
        #expect(object.keys == ["accessToken", "refreshToken", "id", "username", "email", "firstName", "lastName", "gender", "image"])
        let cookies = routed.response.headers.filter { $0.name == "Set-Cookie" }.map(\.value)
        #expect(cookies.count == 2)
        #expect(cookies.allSatisfy { $0.contains("Max-Age=1800") && $0.contains("HttpOnly") })
        let access = try TokenService(secret: "test-secret").verify(object["accessToken"]?.stringValue ?? "", now: Int(RouterTests.now))
        #expect((access["exp"]?.intValue ?? 0) - (access["iat"]?.intValue ?? 0) == 1_800)
        #expect(access.keys == ["id", "username", "email", "firstName", "lastName", "gender", "image", "iat", "exp"])
        let refresh = try TokenService(secret: "test-secret").verify(object["refreshToken"]?.stringValue ?? "", now: Int(RouterTests.now))
        #expect((refresh["exp"]?.intValue ?? 0) - (refresh["iat"]?.intValue ?? 0) == 2_592_000)
    }

    @Test func loginAcceptsUrlencodedBodies() {
        let request = HTTPRequest(method: "POST", target: "/users/login",
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: Array("username=emilys&password=emilyspass".utf8))
        #expect(routes.router.route(request).response.status == 200)
    }

    @Test(arguments: [
        (#"{}"#, 400, "Username and password required"),
        (#"{"username":"emilys","password":""}"#, 400, "Username and password required"),
        (#"{"username":42,"password":"x"}"#, 400, "Username is not valid"),
        (#"{"username":"emilys","password":"EMILYSPASS"}"#, 400, "Invalid credentials"),
        (#"{"username":"nobody","password":"nobodypass"}"#, 400, "Invalid credentials"),
        (#"{"username":"emilys","password":"emilyspass","expiresInMins":43201}"#, 400, "Maximum access token expire time can be 43200 minutes"),
        (#"{"username":"emilys","password":"emilyspass","expiresInMins":"soon"}"#, 400, "Maximum access token expire time can be 43200 minutes"),
        (#"{"username":"emilys","password":"emilyspass","expiresInMins":""}"#, 400, "Maximum access token expire time can be 43200 minutes"),
        (#"{"username":"emilys","password":"emilyspass","expiresInMins":null}"#, 400, "Maximum access token expire time can be 43200 minutes"),
    ])
    func loginFailures(body: String, status: Int, message: String) {
        let routed = routes.send("POST", "/auth/login", json: body)
        #expect(routed.response.status == status)
        #expect(routes.message(routed) == message)
    }

    @Test func zeroMinutesKeepsDummyJSONsQuirk() {
        let routed = routes.send("POST", "/auth/login", json: #"{"username":"emilys","password":"emilyspass","expiresInMins":0}"#)
        #expect(routed.response.status == 200)
        #expect(routed.response.headers.filter { $0.name == "Set-Cookie" }.allSatisfy { $0.value.contains("Max-Age=0;") })
    }

    @Test func meWithHeaderBareTokenOrCookie() {
        let token = routes.token()
        for headers: HTTPHeaders in [["Authorization": "Bearer \(token)"], ["Authorization": token], ["Cookie": "a=b; accessToken=\(token)"]] {
            let routed = routes.send("GET", "/auth/me", headers: headers)
            #expect(routed.response.status == 200)
            #expect(routes.body(routed)?["username"] == .string("emilys"))
            #expect(routes.body(routed)?["password"] == .string("emilyspass"))
        }
    }

    @Test func meFailuresCarryDummyJSONsMessagesAndClearCookies() {
        let expired = TokenService(secret: "test-secret").sign(
            claims: Catalog.standard.users.user(id: 1)!.tokenClaims, issuedAt: Int(RouterTests.now) - 7_200, lifetimeSeconds: 3_600)
        let foreign = TokenService(secret: "another").sign(
            claims: Catalog.standard.users.user(id: 1)!.tokenClaims, issuedAt: Int(RouterTests.now), lifetimeSeconds: 3_600)
        let ghost = TokenService(secret: "test-secret").sign(
            claims: [.init(key: "id", value: .number(JSONNumber(999))), .init(key: "username", value: .string("ghost"))],
            issuedAt: Int(RouterTests.now), lifetimeSeconds: 3_600)
        let cases: [(HTTPHeaders, Int, String)] = [
            ([:], 401, "Access Token is required"),
            (["Authorization": "Bearer"], 401, "Invalid/Expired Token!"),
            (["Authorization": "bearer \(routes.token())"], 401, "Invalid/Expired Token!"),
            (["Authorization": "Bearer \(expired)"], 401, "Token Expired!"),
            (["Authorization": "Bearer \(foreign)"], 401, "invalid signature"),
            (["Authorization": "Bearer \(ghost)"], 400, "Invalid access token"),
        ]
        for (headers, status, message) in cases {
            let routed = routes.send("GET", "/auth/me", headers: headers)
            #expect(routed.response.status == status, "\(message)")
            #expect(routes.message(routed) == message)
            #expect(routed.response.headers.filter { $0.name == "Set-Cookie" }.count == 2)
            #expect(routed.response.headers["WWW-Authenticate"] == nil)
        }
    }

    @Test func refreshIssuesANewPair() {
        let refresh = routes.token(minutes: 43_200)
        let routed = routes.send("POST", "/auth/refresh", json: #"{"refreshToken":"\#(refresh)","expiresInMins":5}"#)
        #expect(routed.response.status == 200)
        guard case .object(let object)? = routes.body(routed) else { return }
        #expect(object.keys == ["accessToken", "refreshToken"])
        #expect(routed.response.headers.filter { $0.name == "Set-Cookie" }.allSatisfy { $0.value.contains("Max-Age=300;") })
        let viaCookie = routes.send("POST", "/auth/refresh", headers: ["Cookie": "refreshToken=\(refresh)"])
        #expect(viaCookie.response.status == 200)
    }

    @Test func refreshFailures() {
        #expect(routes.message(routes.send("POST", "/auth/refresh", json: "{}")) == "Refresh token required")
        #expect(routes.send("POST", "/auth/refresh", json: "{}").response.status == 401)
        let bad = routes.send("POST", "/auth/refresh", json: #"{"refreshToken":"x.y.z"}"#)
        #expect(bad.response.status == 403)
        #expect(routes.message(bad) == "Invalid refresh token")
    }

    @Test func logoutAndResourcesBehindTheToken() {
        let headers: HTTPHeaders = ["Authorization": "Bearer \(routes.token())"]
        #expect(routes.message(routes.send("POST", "/auth/logout", headers: headers)) == "Logged out successfully")
        #expect(routes.send("POST", "/auth/logout").response.status == 401)
        let products = routes.send("GET", "/auth/products?limit=2", headers: headers)
        #expect(products.response.status == 200)
        #expect(routes.body(products)?["limit"]?.intValue == 2)
        #expect(routes.message(routes.send("GET", "/auth/products/1")) == "Access Token is required")
        #expect(routes.send("GET", "/auth/products/7", headers: headers).response.status == 200)
    }
}
