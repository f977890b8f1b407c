import Foundation
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport
import UnderstudyTesting

@Suite struct TransferTests {
    private let file = Endpoint<EmptyResponse>(path: "files/1")

    private func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("transfer-test-\(UUID().uuidString)")
    }

    @Test func downloadLandsAtTheDestinationWithProgress() async throws {
        let chunks = (0..<4).map { Data(repeating: UInt8($0), count: 1000) }
        let host = StubHost([StubResponse(status: 200, chunks: chunks)])
        let client = Fixtures.client(host)
        let destination = temporaryURL()
        defer { try? FileManager.default.removeItem(at: destination) }
        try Data("old".utf8).write(to: destination)

        let transfer = client.download(file, to: destination)
        let url = try await transfer.value()
        var last: TransferProgress?
        for await step in transfer.progress { last = step }

        #expect(url == destination)
        #expect(try Data(contentsOf: destination) == chunks.reduce(Data(), +))
        #expect(last == TransferProgress(completedBytes: 4000, expectedBytes: 4000))
        #expect(last?.fractionCompleted == 1)
    }

    @Test func shortBodyFailsAndLeavesNoFile() async throws {
        let host = StubHost([StubResponse(status: 200, headers: ["Content-Length": "5000"],
                                          chunks: [Data(repeating: 1, count: 1000)])])
        let client = Fixtures.client(host)
        let destination = temporaryURL()
        let error = await #expect(throws: APIError.self) { try await client.download(file, to: destination).value() }
        #expect(error?.kind == .connectionLost)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func downloadErrorStatusIsTheError() async throws {
        let host = StubHost([.message("missing", status: 404)])
        let client = Fixtures.client(host)
        let error = await #expect(throws: APIError.self) {
            try await client.download(file, to: temporaryURL()).value()
        }
        #expect(error?.kind == .httpStatus)
        #expect(error?.serverMessage == "missing")
    }

    @Test func uploadFromDataDecodesTheReply() async throws {
        let host = StubHost([.json(#"{"id":7,"title":"sent"}"#, status: 201)])
        let client = Fixtures.client(host)
        let endpoint = Endpoint<Item>(path: "uploads", method: .post, headers: ["Content-Type": "text/plain"])
        let item = try await client.upload(endpoint, from: .data(Data("hello".utf8))).value()
        #expect(item == Item(id: 7, title: "sent"))
        #expect(host.requests.first?.method == "POST")
        #expect(host.requests.first?.header("Content-Type") == "text/plain")
        #if !canImport(FoundationNetworking)
        // FoundationNetworking keeps an upload task's body on the task, out of a custom URLProtocol's reach
        // (neither httpBody nor httpBodyStream is set), so only Darwin can check it here.
        #expect(host.requests.first?.body == Data("hello".utf8))
        #endif
    }

    @Test func uploadFromFile() async throws {
        let source = temporaryURL()
        try Data("file body".utf8).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let host = StubHost([.json(#"{"id":8,"title":"file"}"#)])
        let client = Fixtures.client(host)
        let item = try await client.upload(Endpoint<Item>(path: "uploads", method: .put), from: .file(source)).value()
        #expect(item.id == 8)
        // Labelled as bytes, not as the form libcurl would otherwise assume.
        #expect(host.requests.first?.header("Content-Type") == "application/octet-stream")
    }

    @Test func cancellingAnUploadThrowsCancelled() async throws {
        let host = StubHost([.hang])
        let client = Fixtures.client(host)
        let transfer = client.upload(Endpoint<Item>(path: "uploads", method: .post), from: .data(Data([1])))
        await host.waitForRequests(1)
        transfer.cancel()
        let error = await #expect(throws: APIError.self) { try await transfer.value() }
        #expect(error?.kind == .cancelled)
    }
}
