import Foundation
import Testing
import Understudy
import UnderstudyRecording
import UnderstudyTestSupport

/// The three fixture HARs (fixtures/har) imported, then served by a replaying server and asked over a raw socket
/// exactly as each entry's client asked: every usable entry answers with its status and its recorded body.
@Suite(.blocksThreads) struct HARReplayTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/har")

    @Test(arguments: ["chrome", "pulse", "proxyman"])
    func everyImportedEntryIsServedOverASocket(name: String) async throws {
        try await replaysEveryImportedEntry(of: Self.fixtures.appendingPathComponent("\(name).har"), name: name)
    }

    /// The ten exporters' real files (shared/har_real), each host chosen in turn: every entry is served or was
    /// listed as skipped.
    @Test(arguments: SharedData.harFiles)
    func everyImportedEntryOfARealFileIsServedOverASocket(name: String) async throws {
        let archive = try HARArchive.read(SharedData.bytes(SharedData.har(name)), options: HARReadOptions(hosts: .all))
        for host in Set(archive.exchanges.map(\.host)) {
            try await replaysEveryImportedEntry(of: SharedData.har(name), name: name, hosts: .named(host))
        }
    }

    private func replaysEveryImportedEntry(of file: URL, name: String,
                                           hosts: HARReadOptions.Hosts = .main) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let imported = try HARImport.run(file: file, into: directory, reading: HARReadOptions(hosts: hosts))
        #expect(!imported.archive.exchanges.isEmpty, "\(name)")
        let recording = try Recording(contentsOf: directory)
        // What each request should get, turn by turn, read from the directory apart from the server.
        let expected = ReplayMatcher(recording)
        try await withServer({ $0.replay = recording }) { server, _ in
            for exchange in imported.archive.exchanges {
                let request = exchange.recorded.request
                guard case .hit(let recorded, let file) = expected.answer(request) else {
                    Issue.record("\(name): \(exchange.summary) is not in the directory")
                    continue
                }
                let target = String(exchange.summary.dropFirst(request.method.count + 1))
                if recorded.status == 101 {
                    // A WebSocket: the upgrade is accepted, and what the server said first is said again.
                    let socket = try RawWebSocket(port: server.port, path: target)
                    #expect(socket.response.status == 101, "\(name): \(exchange.summary) (\(file))")
                    if let first = recorded.messages.first, first.sender == .server {
                        #expect(socket.readFrame()?.payload == first.data, "\(name): \(exchange.summary) (\(file))")
                    }
                    continue
                }
                let connection = try RawHTTPConnection(port: server.port)
                var head = "\(request.method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                if let type = request.headers.value(for: "Content-Type") { head += "Content-Type: \(type)\r\n" }
                head += "Content-Length: \(request.body.count)\r\n\r\n"
                connection.write(Array(head.utf8) + request.body)
                let reply = try #require(connection.readResponse(), "\(name): \(exchange.summary)")
                #expect(reply.status == exchange.recorded.response.status, "\(name): \(exchange.summary) (\(file))")
                #expect(reply.header("X-Understudy-Replay") == nil, "\(name): \(exchange.summary): \(reply.body)")
                #expect(reply.body == recorded.body, "\(name): \(exchange.summary) (\(file))")
            }
        }
    }
}
