import Testing
@testable import Understudy

/// The admin API's same-origin and Host rules, decided from a request's head alone.
@Suite struct AdminGateTests {
    let gate = AdminGate(boundHost: "127.0.0.1", boundPort: 8080, allowedHosts: ["Dev.Example"])

    func refusal(_ method: String, _ path: String, _ headers: HTTPHeaders) -> APIError? {
        gate.refusal(method: method, path: path, headers: headers)
    }

    func refusal(_ headers: HTTPHeaders) -> APIError? {
        refusal("GET", "/__understudy/faults", headers)
    }

    @Test(arguments: [
        "127.0.0.1:8080", "127.0.0.1", "localhost:8080", "LOCALHOST", "localhost.", "127.1.2.3:8080", "[::1]:8080",
        "[::1]", "dev.example", "DEV.example:8080",
    ])
    func hostsThisServerAnswersTo(host: String) {
        #expect(refusal(["Host": host]) == nil)
    }

    @Test(arguments: [
        "evil.example", "evil.example:8080", "localhost:9090", "127.0.0.1:80", "10.0.0.1:8080", "127.0.0.1.evil.example",
        "127.0.0.256", "::1", "[::1", "localhost:http", "localhost.evil", "dev.example:1", "",
    ])
    func foreignHostsAreRefusedByName(host: String) throws {
        let error = try #require(refusal(["Host": host]))
        #expect(error.status == 403)
        #expect(error.message.contains("Host '\(host)'"))
        #expect(error.message.contains("--allow-host"))
    }

    @Test func noHostNoOriginIsLikeCurlAndPasses() {
        #expect(refusal([:]) == nil)
        #expect(refusal("POST", "/__understudy/offline", ["Host": "127.0.0.1:8080", "Content-Type": "application/json"]) == nil)
    }

    @Test(arguments: [("127.0.0.1:8080", "http://127.0.0.1:8080"), ("localhost:8080", "http://localhost:8080"),
                      ("localhost", "http://LOCALHOST:8080"), ("[::1]:8080", "http://[::1]:8080")])
    func theServersOwnOriginPasses(host: String, origin: String) {
        #expect(refusal("POST", "/__understudy/faults", ["Host": host, "Origin": origin, "Sec-Fetch-Site": "same-origin"]) == nil)
    }

    @Test(arguments: [
        "http://evil.example", "http://127.0.0.1:3000", "http://localhost:8080", "https://127.0.0.1:8080", "null",
        "http://127.0.0.1", "http://127.0.0.1:8080/path", "file://", "garbage",
    ])
    func anyOtherOriginIsRefusedAndNamed(origin: String) throws {
        let error = try #require(refusal("POST", "/__understudy/offline", ["Host": "127.0.0.1:8080", "Origin": origin]))
        #expect(error.status == 403)
        #expect(error.message == "Understudy's admin API is same-origin only: refused a request from origin '\(origin)'")
    }

    @Test func withoutHostTheOriginMustNameAnAllowedHostAndTheBoundPort() {
        #expect(refusal(["Origin": "http://localhost:8080"]) == nil)
        #expect(refusal(["Origin": "http://dev.example:8080"]) == nil)
        #expect(refusal(["Origin": "http://evil.example:8080"])?.status == 403)
        #expect(refusal(["Origin": "http://localhost:3000"])?.status == 403)
    }

    @Test(arguments: ["cross-site", "same-site", "Cross-Site"])
    func secFetchSiteFromAnotherSiteOrPortIsRefused(site: String) throws {
        let error = try #require(refusal(["Host": "127.0.0.1:8080", "Sec-Fetch-Site": site]))
        #expect(error.status == 403)
        #expect(error.message.contains("\(site.lowercased()) request"))
        let named = try #require(refusal(["Host": "127.0.0.1:8080", "Sec-Fetch-Site": site, "Origin": "http://127.0.0.1:8080"]))
        #expect(named.message.contains("origin 'http://127.0.0.1:8080'"))
    }

    @Test(arguments: ["same-origin", "none"])
    func secFetchSiteOfThisOriginOrTheUserPasses(site: String) {
        #expect(refusal(["Host": "127.0.0.1:8080", "Sec-Fetch-Site": site]) == nil)
    }

    @Test func preflightsAreRefusedEvenFromThisOrigin() throws {
        let foreign = try #require(refusal("OPTIONS", "/__understudy/faults", [
            "Host": "127.0.0.1:8080", "Origin": "http://evil.example", "Access-Control-Request-Method": "DELETE"]))
        #expect(foreign.status == 403)
        #expect(foreign.message.contains("no CORS preflight (from origin 'http://evil.example')"))
        #expect(refusal("OPTIONS", "/__understudy/faults", ["Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:8080"])?.status == 403)
        // A bare OPTIONS (curl -X OPTIONS) is no preflight: the admin API answers it as before.
        #expect(refusal("OPTIONS", "/__understudy/faults", ["Host": "127.0.0.1:8080"]) == nil)
    }

    @Test func publicRoutesAreNotGated() {
        let hostile: HTTPHeaders = ["Host": "evil.example", "Origin": "null", "Sec-Fetch-Site": "cross-site"]
        #expect(refusal("POST", "/products/add", hostile) == nil)
        #expect(refusal("OPTIONS", "/products/1", hostile) == nil)
        #expect(AdminGate.allowsCORS(for: HTTPRequest(method: "GET", target: "/products/1")))
        #expect(!AdminGate.allowsCORS(for: HTTPRequest(method: "GET", target: "/__understudy/health")))
        #expect(!AdminGate.allowsCORS(for: HTTPRequest(method: "GET", target: "/__understudy")))
    }

    @Test func boundBeyondLoopbackTheBoundAddressAndAllowedNamesPass() {
        let wide = AdminGate(boundHost: "0.0.0.0", boundPort: 80, allowedHosts: ["buildbox.lan", "[fd00::5]"])
        #expect(wide.refusal(method: "GET", path: "/__understudy/health", headers: ["Host": "buildbox.lan"]) == nil)
        #expect(wide.refusal(method: "GET", path: "/__understudy/health", headers: ["Host": "[fd00::5]:80"]) == nil)
        #expect(wide.refusal(method: "GET", path: "/__understudy/health", headers: ["Host": "0.0.0.0"]) == nil)
        #expect(wide.refusal(method: "GET", path: "/__understudy/health", headers: ["Host": "192.168.1.9"])?.status == 403)
        // Port 80 is the default an Origin leaves out.
        #expect(wide.refusal(method: "POST", path: "/__understudy/reset",
                             headers: ["Host": "buildbox.lan", "Origin": "http://buildbox.lan"]) == nil)
    }

    @Test func hostAuthorityParsing() {
        #expect(HostAuthority("Example.COM:81") == HostAuthority(name: "example.com", port: 81))
        #expect(HostAuthority("[::1]") == HostAuthority(name: "::1", port: nil))
        #expect(HostAuthority("localhost:") == HostAuthority(name: "localhost", port: nil))
        #expect(HostAuthority("a:99999") == nil)
        #expect(HostAuthority("user@host") == nil)
        #expect(HostAuthority.origin("null") == nil)
        #expect(HostAuthority.origin("http://a.b:3000")?.authority == HostAuthority(name: "a.b", port: 3000))
    }
}
