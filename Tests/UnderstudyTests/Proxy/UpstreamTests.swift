import Testing
@testable import Understudy

/// `--upstream URL` as read, and the request as it leaves for the upstream.
@Suite struct UpstreamTests {
    @Test func aURLGivesSchemeHostPortAndBasePath() throws {
        let plain = try Upstream(url: "http://127.0.0.1:9000")
        #expect((plain.scheme, plain.host, plain.port, plain.basePath) == ("http", "127.0.0.1", 9000, ""))
        let secure = try Upstream(url: "HTTPS://api.example.com/v2/")
        #expect((secure.scheme, secure.host, secure.port, secure.basePath) == ("https", "api.example.com", 443, "/v2"))
        #expect(secure.url == "https://api.example.com/v2")
        #expect(secure.hostHeader == "api.example.com")
        let v6 = try Upstream(url: "http://[::1]:8080")
        #expect(v6.host == "::1" && v6.port == 8080 && v6.hostHeader == "[::1]:8080")
    }

    @Test func aBadURLSaysWhatIsWrong() {
        let cases: [(String, String)] = [
            ("api.example.com", "--upstream needs a URL starting with http:// or https://, not 'api.example.com'"),
            ("ftp://x", "--upstream supports http:// and https:// URLs, not 'ftp://'"),
            ("http://x:99999", "--upstream's port must be 1 to 65535 in 'http://x:99999'"),
            ("http://x:port", "--upstream has a bad port in 'http://x:port'"),
            ("http://user:pw@x", "--upstream takes no user or password in the URL: 'http://user:pw@x'"),
            ("http://x/a?b=1", "--upstream takes no query or fragment: 'http://x/a?b=1'"),
            ("http://", "--upstream needs a host: 'http://'"),
        ]
        for (url, message) in cases {
            #expect(throws: UpstreamError(message)) { try Upstream(url: url) }
        }
    }

    @Test func theForwardedRequestKeepsTheClientsAndDropsUnderstudysOwn() throws {
        let upstream = try Upstream(url: "http://api.test:8443/v1")
        let request = HTTPRequest(method: "PUT", target: "/items/1?a=1&_fault=status%3D503&b=2", headers: [
            "Host": "localhost:8080", "Authorization": "Bearer t", "Connection": "keep-alive, X-Secret-Hop",
            "X-Secret-Hop": "1", "Transfer-Encoding": "chunked", "X-Understudy-Session": "s",
            "X-Understudy-Fault": "delay=1s", "X-Forwarded-For": "10.0.0.1", "Content-Length": "2",
        ], body: Array("{}".utf8))
        let forwarded = UpstreamRequest(forwarding: request, to: upstream, clientAddress: "127.0.0.1")
        #expect(forwarded.method == "PUT")
        #expect(forwarded.target == "/v1/items/1?a=1&b=2")
        #expect(forwarded.body == Array("{}".utf8))
        #expect(forwarded.headers.fields.map { "\($0.name): \($0.value)" } == [
            "Host: api.test:8443", "Authorization: Bearer t", "X-Forwarded-For: 10.0.0.1, 127.0.0.1",
            "X-Forwarded-Host: localhost:8080", "X-Forwarded-Proto: http", "Content-Length: 2",
        ])
    }
}
