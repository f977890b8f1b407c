import Testing
import UnderstudyClient

/// Header lookups answer the same whatever case a platform's Foundation gives names in.
struct ResponseHeadersTests {
    @Test func lookupIgnoresCaseAndKeepsTheNameAsReceived() {
        var headers: ResponseHeaders = ["X-Ratelimit-Limit": "100"]
        #expect(headers["X-RateLimit-Limit"] == "100")
        #expect(headers["x-ratelimit-limit"] == "100")
        headers["X-RATELIMIT-LIMIT"] = "99"
        #expect(headers.count == 1)
        #expect(headers.names == ["X-Ratelimit-Limit"])
        #expect(headers["x-ratelimit-limit"] == "99")
        headers["x-ratelimit-limit"] = nil
        #expect(headers.isEmpty)
    }

    @Test func equalityIgnoresTheCaseOfNames() {
        #expect(ResponseHeaders(["ETag": "a", "Vary": "Origin"]) == ["etag": "a", "vary": "Origin"])
        #expect(ResponseHeaders(["ETag": "a"]) != ["ETag": "b"])
        #expect(ResponseHeaders(["ETag": "a"]) != ["ETag": "a", "Vary": "Origin"])
    }
}
