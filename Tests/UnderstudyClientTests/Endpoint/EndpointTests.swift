import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport

@Suite struct EndpointTests {
    /// An API's endpoint as a static function, the way an app declares its own.
    private static func byID(_ id: Int) -> Endpoint<Item> {
        Endpoint(path: "/items/\(id)")
    }

    private func url(_ text: String) throws -> URL {
        try #require(URL(string: text))
    }

    @Test func defaultsBuildAGetWithAcceptJSON() throws {
        let request = try Self.byID(3).makeRequest(baseURL: url("http://h.test"))
        #expect(request.url?.absoluteString == "http://h.test/items/3")
        #expect(request.httpMethod == "GET")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test(arguments: [
        ("http://h.test", "items", "http://h.test/items"),
        ("http://h.test/", "/items", "http://h.test/items"),
        ("http://h.test/api", "items", "http://h.test/api/items"),
        ("http://h.test/api/", "//items", "http://h.test/api/items"),
        ("https://h.test:8443/v1?key=k", "items", "https://h.test:8443/v1/items?key=k&q=1"),
    ])
    func joinsBaseAndPath(base: String, path: String, expected: String) throws {
        let query = base.contains("?") ? [URLQueryItem(name: "q", value: "1")] : []
        let request = try Endpoint<Item>(path: path, queryItems: query).makeRequest(baseURL: url(base))
        #expect(request.url?.absoluteString == expected)
    }

    @Test(arguments: ["ftp://h.test", "file:///tmp", "mailto:someone@h.test", "/relative", "http://"])
    func badBaseURLIsAnError(base: String) throws {
        let error = #expect(throws: APIError.self) { try Self.byID(1).makeRequest(baseURL: try url(base)) }
        #expect(error?.kind == .invalidURL)
    }

    @Test func queryValuesAreEscaped() throws {
        let request = try Endpoint<Item>(path: "s", queryItems: [URLQueryItem(name: "q", value: "a+b=c&d é")])
            .makeRequest(baseURL: url("http://h.test"))
        #expect(request.url?.query == "q=a%2Bb%3Dc%26d%20%C3%A9")
    }

    @Test func jsonBodySetsContentTypeUnlessGiven() throws {
        let plain = try Endpoint<Item>(path: "p", method: .post, body: .json(["a": 1]))
            .makeRequest(baseURL: url("http://h.test"))
        #expect(plain.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(plain.httpBody == Data(#"{"a":1}"#.utf8))
        let custom = try Endpoint<Item>(path: "p", method: .post, headers: ["Content-Type": "application/vnd+json"],
                                          body: .json(["a": 1])).makeRequest(baseURL: url("http://h.test"))
        #expect(custom.value(forHTTPHeaderField: "Content-Type") == "application/vnd+json")
    }

    @Test func unencodableBodyIsAnEncodingError() throws {
        let error = #expect(throws: APIError.self) {
            try Endpoint<Item>(path: "p", method: .post, body: .json(["x": Double.nan])).makeRequest(baseURL: try url("http://h.test"))
        }
        #expect(error?.kind == .encodingFailed)
    }

    @Test(arguments: [
        (HTTPMethod.get, true), (.head, true), (.put, true), (.delete, true), (.options, true), (.trace, true),
        (.post, false), (.patch, false), ("propfind", false),
    ])
    func idempotency(method: HTTPMethod, idempotent: Bool) {
        #expect(method.isIdempotent == idempotent)
        #expect(Endpoint<Item>(path: "p", method: method).mayRetry == idempotent)
        #expect(Endpoint<Item>(path: "p", method: method, isReplayable: true).mayRetry)
    }

    @Test func tokenOnlyWhenNonEmpty() throws {
        let request = try Self.byID(1).makeRequest(baseURL: url("http://h.test"))
        #expect(APIClient.authorize(request, with: nil).value(forHTTPHeaderField: "Authorization") == nil)
        #expect(APIClient.authorize(request, with: Credential(token: "", version: 0))
            .value(forHTTPHeaderField: "Authorization") == nil)
        #expect(APIClient.authorize(request, with: Credential(token: "t", version: 0))
            .value(forHTTPHeaderField: "Authorization") == "Bearer t")
    }

    @Test func emptyResponseDecodesFromNothing() throws {
        let value = try Endpoint<EmptyResponse>(path: "x").decode(Data(), decoder: JSONDecoder())
        #expect(value == EmptyResponse())
    }
}
