import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyRecording
import UnderstudyTesting

/// A HAR a proxy saved (fixtures/har/proxyman.har), imported, then answered by `StubHost(recording:)` in a unit
/// test with no server: the requests an app makes get what the HAR's server gave, sequences and all.
@Suite struct HARStubReplayTests {
    private final class Directory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("har-stub-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    private static let har = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/har/proxyman.har")

    private func send(_ session: URLSession, _ url: String, method: String = "GET", type: String? = nil,
                      body: Data? = nil) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.httpBody = body
        if let type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await session.data(for: request)
        return (try #require(response as? HTTPURLResponse).statusCode, data)
    }

    @Test func anImportedHARAnswersAnAppWithNoServer() async throws {
        let directory = Directory()
        _ = try HARImport.run(file: Self.har, into: directory.url)
        let host = try StubHost(recording: directory.url)
        let session = URLSession(configuration: host.sessionConfiguration())
        defer { session.finishTasksAndInvalidate() }
        let base = host.baseURL.absoluteString

        #expect(String(decoding: try await send(session, base + "v1/cart").body, as: UTF8.self) == #"{"items":0}"#)
        #expect(String(decoding: try await send(session, base + "v1/cart").body, as: UTF8.self) == #"{"items":1}"#)
        // The query in another order, a form body as the app sends it, a binary upload, a recorded 404.
        #expect(try await send(session, base + "v1/orders?page=2&status=open").status == 200)
        let form = try await send(session, base + "v1/newsletter", method: "POST", type: "application/x-www-form-urlencoded",
                                  body: Data("email=ada%40example.org&topics=news+%26+offers".utf8))
        #expect(form.status == 201)
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
        #expect(try await send(session, base + "v1/me/avatar", method: "PUT", type: "image/png", body: png).status == 200)
        #expect(try await send(session, base + "v1/orders/999").status == 404)
        #expect(try await send(session, base + "v1/orders/998").status == 502)
    }
}
