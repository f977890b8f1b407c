import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport
import UnderstudyTesting

@Suite struct APIClientTests {
    private func item(_ id: Int = 1) -> Endpoint<Item> {
        Endpoint(path: "items/\(id)")
    }

    @Test func decodesSuccess() async throws {
        let host = StubHost([.json(#"{"id":1,"title":"Lamp"}"#)])
        let client = Fixtures.client(host)
        let value = try await client.send(item())
        #expect(value == Item(id: 1, title: "Lamp"))
        #expect(host.requests.first?.url?.path == "/items/1")
        #expect(host.requests.first?.header("Accept") == "application/json")
    }

    @Test func decodingFailureNamesTheField() async throws {
        let host = StubHost([.json(#"{"id":1,"title":42}"#)])
        let client = Fixtures.client(host)
        let error = await #expect(throws: APIError.self) { try await client.send(item()) }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.decoding?.codingPath == "title")
        #expect(error?.decoding?.type == "Item")
        #expect(error?.body == Data(#"{"id":1,"title":42}"#.utf8))
        #expect(error?.attempts == 1)
    }

    @Test func retries503ThenSucceeds() async throws {
        let host = StubHost([.status(503), .json(#"{"id":1,"title":"Lamp"}"#)])
        let client = Fixtures.client(host)
        let response = try await client.sendWithResponse(item())
        #expect(response.value.id == 1)
        #expect(response.attempts == 2)
        #expect(host.requests.count == 2)
    }

    @Test func postIsNotRetried() async throws {
        let host = StubHost([.status(503), .json(#"{"id":1,"title":"Lamp"}"#)])
        let client = Fixtures.client(host)
        let request = Endpoint<Item>(path: "items", method: .post, body: .json(["title": "Lamp"]))
        let error = await #expect(throws: APIError.self) { try await client.send(request) }
        #expect(error?.kind == .serverError)
        #expect(error?.status == 503)
        #expect(host.requests.count == 1)
        #expect(host.requests.first?.body == Data(#"{"title":"Lamp"}"#.utf8))
    }

    @Test func cancellationWhileInFlight() async throws {
        let host = StubHost([.hang])
        let client = Fixtures.client(host)
        let task = Task { try await client.send(item()) }
        await host.waitForRequests(1)
        task.cancel()
        let result = await task.result
        #expect(throws: APIError.self) { try result.get() }
        if case .failure(let error as APIError) = result { #expect(error.kind == .cancelled) }
    }

    @Test func streamDeliversChunksAndRejectsErrors() async throws {
        let host = StubHost([.eventStream(["a", "bc", "d"]), .message("nope", status: 404)])
        let client = Fixtures.client(host)
        let streamed = try await client.stream(item())
        var collected = Data()
        for try await chunk in streamed.bytes { collected.append(chunk) }
        #expect(String(decoding: collected, as: UTF8.self) == "abcd")
        let error = await #expect(throws: APIError.self) { try await client.stream(item()) }
        #expect(error?.kind == .httpStatus)
        #expect(error?.serverMessage == "nope")
    }

    @Test func linesSplitAcrossChunksAndTerminators() async throws {
        let chunks = [Data("a\r".utf8), Data("\nb\rc".utf8), Data("\n".utf8), Data([0x64, 0xE2, 0x82]), Data([0xAC])]
        let host = StubHost([StubResponse(status: 200, chunks: chunks)])
        let client = Fixtures.client(host)
        var lines: [String] = []
        for try await line in try await client.stream(item()).bytes.lines { lines.append(line) }
        #expect(lines == ["a", "b", "c", "d€"])
    }
}
