import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport
import UnderstudyTesting

@Suite struct ETagCacheTests {
    private let lamp = #"{"id":1,"title":"Lamp"}"#
    private let desk = #"{"id":1,"title":"Desk lamp"}"#

    private func item() -> Endpoint<Item> {
        Endpoint(path: "items/1")
    }

    @Test func a304HandsBackTheStoredBody() async throws {
        let host = StubHost([.json(lamp, headers: ["ETag": #"W/"a""#]), .status(304, headers: ["ETag": #"W/"a""#])])
        let client = Fixtures.client(host, etagCache: ETagCache())
        let first = try await client.sendWithResponse(item())
        let second = try await client.sendWithResponse(item())
        #expect(!first.isRevalidated)
        #expect(second.isRevalidated)
        #expect(second.response.statusCode == 304)
        #expect(second.value == first.value)
        #expect(second.data == Data(lamp.utf8))
        #expect(host.requests.map { $0.header("If-None-Match") } == [nil, #"W/"a""#])
    }

    @Test func aNewETagReplacesTheEntry() async throws {
        let host = StubHost([
            .json(lamp, headers: ["ETag": #"W/"a""#]),
            .json(desk, headers: ["ETag": #"W/"b""#]),
            .status(304),
        ])
        let cache = ETagCache()
        let client = Fixtures.client(host, etagCache: cache)
        _ = try await client.send(item())
        let changed = try await client.sendWithResponse(item())
        let again = try await client.sendWithResponse(item())
        #expect(!changed.isRevalidated)
        #expect(changed.value.title == "Desk lamp")
        #expect(again.isRevalidated)
        #expect(again.value.title == "Desk lamp")
        #expect(host.requests.map { $0.header("If-None-Match") } == [nil, #"W/"a""#, #"W/"b""#])
        #expect(cache.count == 1)
        #expect(cache.totalBytes == desk.utf8.count)
    }

    @Test(arguments: [
        ["X-Understudy-Fault-Applied": "malformed=shape", "ETag": #"W/"a""#],
        ["Cache-Control": "private, no-store", "ETag": #"W/"a""#],
        [:],
    ])
    func unstorableRepliesAreNotKept(headers: [String: String]) async throws {
        let host = StubHost([.json(lamp, headers: headers), .json(lamp)])
        let cache = ETagCache()
        let client = Fixtures.client(host, etagCache: cache)
        _ = try await client.send(item())
        _ = try await client.send(item())
        #expect(host.requests.map { $0.header("If-None-Match") } == [nil, nil])
        #expect(cache.count == 0)
    }

    @Test func aReplyWithoutAValidatorDropsTheStaleEntry() async throws {
        let host = StubHost([.json(lamp, headers: ["ETag": #"W/"a""#]), .json(desk), .json(desk)])
        let cache = ETagCache()
        let client = Fixtures.client(host, etagCache: cache)
        _ = try await client.send(item())
        _ = try await client.send(item())
        _ = try await client.send(item())
        #expect(host.requests.map { $0.header("If-None-Match") } == [nil, #"W/"a""#, nil])
    }

    @Test func errorsAndBodiesThatDoNotDecodeAreNotStored() async throws {
        let host = StubHost([
            .message("down", status: 503, headers: ["ETag": #"W/"x""#]),
            .json(#"{"id":"one"}"#, headers: ["ETag": #"W/"y""#]),
        ])
        let cache = ETagCache()
        let client = Fixtures.client(host, retry: .never, etagCache: cache)
        _ = await #expect(throws: APIError.self) { try await client.send(item()) }
        _ = await #expect(throws: APIError.self) { try await client.send(item()) }
        #expect(cache.count == 0)
    }

    @Test func onlyGETsWithoutTheirOwnConditionAreHandled() async throws {
        let host = StubHost([.json(lamp, headers: ["ETag": #"W/"a""#]), .json(lamp, headers: ["ETag": #"W/"a""#])])
        let cache = ETagCache()
        let client = Fixtures.client(host, etagCache: cache)
        _ = try await client.send(Endpoint<Item>(path: "items/1", method: .post))
        var own = item()
        own.headers["If-None-Match"] = #"W/"z""#
        _ = try await client.send(own)
        #expect(cache.count == 0)
        #expect(host.requests.last?.header("If-None-Match") == #"W/"z""#)
    }

    @Test func authorizationSeparatesEntries() async throws {
        let host = StubHost([
            .json(lamp, headers: ["ETag": #"W/"a""#]),
            .json(lamp, headers: ["ETag": #"W/"a""#]),
            .status(304),
        ])
        let cache = ETagCache()
        let client = Fixtures.client(host, etagCache: cache)
        var ann = item()
        ann.headers["Authorization"] = "Bearer ann"
        var bob = item()
        bob.headers["Authorization"] = "Bearer bob"
        _ = try await client.send(ann)
        _ = try await client.send(bob)
        #expect(try await client.sendWithResponse(ann).isRevalidated)
        #expect(host.requests.map { $0.header("If-None-Match") } == [nil, nil, #"W/"a""#])
        #expect(cache.count == 2)
        let url = try #require(host.requests.first?.url)
        #expect(cache.etag(for: url, authorization: "Bearer bob") == #"W/"a""#)
        #expect(cache.etag(for: url) == nil)
    }
}

@Suite struct ETagStoreTests {
    private func key(_ n: Int) -> ETagStore.Key { .init(url: "http://h/\(n)", authorization: nil) }
    private func entry(_ bytes: Int) -> ETagStore.Entry { .init(etag: "e", body: Data(count: bytes)) }

    @Test func evictsTheLeastRecentlyUsedByCount() {
        var store = ETagStore(maxEntries: 2, maxBytes: 100)
        store.insert(entry(1), for: key(1))
        store.insert(entry(1), for: key(2))
        _ = store.entry(for: key(1))
        store.insert(entry(1), for: key(3))
        #expect(store.peek(key(1)) != nil)
        #expect(store.peek(key(2)) == nil)
        #expect(store.peek(key(3)) != nil)
        #expect(store.count == 2)
    }

    @Test func evictsByBytesAndRefusesABodyOverTheLimit() {
        var store = ETagStore(maxEntries: 10, maxBytes: 10)
        store.insert(entry(4), for: key(1))
        store.insert(entry(4), for: key(2))
        store.insert(entry(4), for: key(3))
        #expect(store.peek(key(1)) == nil)
        #expect(store.totalBytes == 8)
        store.insert(entry(11), for: key(2))
        #expect(store.peek(key(2)) == nil)
        #expect(store.totalBytes == 4)
        #expect(store.count == 1)
    }
}
