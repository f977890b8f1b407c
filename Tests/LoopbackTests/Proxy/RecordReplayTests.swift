import Foundation
import Testing
import Understudy
import UnderstudyRecording
import UnderstudyTestSupport

/// `--upstream` with `--record`, then `--replay` with the upstream gone: a real upstream (a second Understudy), a
/// real directory, real sockets.
@Suite struct RecordReplayTests {
    private struct Login: Decodable {
        let accessToken: String
        let refreshToken: String
    }

    /// A fresh directory, removed afterwards.
    private func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    private func startProxy(to upstream: UnderstudyServer, recordingInto directory: URL,
                            replaying replay: Recording? = nil) throws -> UnderstudyServer {
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = try Upstream(url: upstream.baseURL.absoluteString)
        configuration.record = try RecordingWriter(directory: directory)
        configuration.replay = replay
        return try UnderstudyServer.start(configuration)
    }

    /// Every file's text under `directory`.
    private func texts(in directory: URL) -> [String] {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
    }

    @Test func aRecordedSessionHoldsNoSecretAndReplaysWithTheUpstreamGone() async throws {
        try await withDirectory { directory in
            let upstream = try UnderstudyServer.start()
            let proxy = try startProxy(to: upstream, recordingInto: directory)
            let client = HTTPTestClient(server: proxy)
            let password = "emilyspass"
            let login = try await client.json("POST", "/auth/login", raw: #"{"username":"emilys","password":"\#(password)"}"#)
            let tokens = try login.decode(Login.self)
            let me = try await client.send("GET", "/auth/me", headers: ["Authorization": "Bearer \(tokens.accessToken)"])
            let refreshed = try await client.json("POST", "/auth/refresh", raw: #"{"refreshToken":"\#(tokens.refreshToken)"}"#,
                                                  headers: ["Cookie": "accessToken=\(tokens.accessToken)"])
            let newTokens = try refreshed.decode(Login.self)
            let products = try await client.send("/products?limit=2&select=title")
            #expect([login.status, me.status, refreshed.status, products.status] == [Int](repeating: 200, count: 4))
            await proxy.flushRecording()
            proxy.stop()
            upstream.stop()

            // Every secret the session sent or received, anywhere in the directory: none.
            let secrets = [password, tokens.accessToken, tokens.refreshToken, newTokens.accessToken, newTokens.refreshToken]
            let files = texts(in: directory)
            #expect(files.count >= 5, "a file per request, and the manifest")
            for secret in secrets {
                #expect(!files.contains { $0.contains(secret) }, "a secret was written")
            }

            // The upstream is gone: the recording answers each call with what was recorded.
            var configuration = UnderstudyServer.Configuration()
            configuration.replay = try Recording(contentsOf: directory)
            let replay = try UnderstudyServer.start(configuration)
            defer { replay.stop() }
            let offline = HTTPTestClient(server: replay)
            let recorded = try Recording(contentsOf: directory)
            func recordedBody(_ path: String) -> [UInt8]? {
                recorded.entries.first { $0.request.path == path }?.responses.first?.body
            }
            let replayedLogin = try await offline.json("POST", "/auth/login", raw: #"{"username":"emilys","password":"\#(password)"}"#)
            #expect(replayedLogin.status == 200)
            #expect(recordedBody("/auth/login").map { Data($0) } == replayedLogin.body)
            let replayedMe = try await offline.send("GET", "/auth/me", headers: ["Authorization": "Bearer \(tokens.accessToken)"])
            #expect(replayedMe.status == 200, "a redacted Authorization still matches")
            #expect(recordedBody("/auth/me").map { Data($0) } == replayedMe.body)
            let replayedProducts = try await offline.send("/products?select=title&limit=2")
            #expect(replayedProducts.status == 200)
            #expect(replayedProducts.body == products.body)
        }
    }

    @Test func withAReplayOnlyTheMissesAreForwardedAndRecorded() async throws {
        try await withDirectory { directory in
            let upstream = try UnderstudyServer.start()
            defer { upstream.stop() }
            let first = try startProxy(to: upstream, recordingInto: directory)
            #expect(try await HTTPTestClient(server: first).send("/products/1").status == 200)
            await first.flushRecording()
            first.stop()

            let second = try startProxy(to: upstream, recordingInto: directory, replaying: try Recording(contentsOf: directory))
            let client = HTTPTestClient(server: second)
            #expect(try await client.send("/products/1").status == 200)
            #expect(try await client.send("/products/2").status == 200)
            await second.flushRecording()
            second.stop()
            #expect(upstream.journal.entries(path: "/products/1").count == 1, "the hit never reached the upstream")
            #expect(upstream.journal.entries(path: "/products/2").count == 1)
            let paths = try Recording(contentsOf: directory).entries.map(\.request.path).sorted()
            #expect(paths == ["/products/1", "/products/2"])
        }
    }

    private struct RecordingStatus: Decodable {
        let upstream: String?
        let recording: Bool
        let recorded: Int
        let recordedRoutes: [String]
        let replayedRoutes: [String]?
        let misses: Int
        let recentMisses: [String]
        let recentExchanges: Int
        let writeFailures: Int
        let lastWriteFailure: String?
    }

    private struct Snapshot: Decodable {
        let exchanges: Int
    }

    @Test func theAdminAPIStartsStopsAndSnapshotsRecordings() async throws {
        try await withDirectory { directory in
            let upstream = try UnderstudyServer.start()
            defer { upstream.stop() }
            var configuration = UnderstudyServer.Configuration()
            configuration.upstream = try Upstream(url: upstream.baseURL.absoluteString)
            let proxy = try UnderstudyServer.start(configuration)
            defer { proxy.stop() }
            let client = HTTPTestClient(server: proxy)
            let idle = try await client.send("/__understudy/recording").decode(RecordingStatus.self)
            #expect(!idle.recording && idle.upstream == upstream.baseURL.absoluteString && idle.replayedRoutes == nil)

            let live = directory.appendingPathComponent("live")
            let started = try await client.json("POST", "/__understudy/recording", raw: #"{"directory":"\#(live.path)"}"#)
            #expect(started.status == 201)
            #expect(try await client.send("/products/1").status == 200)
            #expect(try await client.json("POST", "/products/add", raw: #"{"title":"x"}"#).status == 201)
            let stopped = try await client.send("DELETE", "/__understudy/recording").decode(RecordingStatus.self)
            #expect(stopped.recorded == 2)
            #expect(stopped.recordedRoutes == ["GET /products/1", "POST /products/add"])
            #expect(try await client.send("/products/2").status == 200)
            await waitUntil(within: .seconds(5)) { (try? Recording(contentsOf: live))?.entries.count == 2 }
            #expect(try Recording(contentsOf: live).entries.count == 2, "nothing is recorded once stopped")

            // The last exchanges are kept, recorded or not: a snapshot writes them after the fact.
            let snapshotDirectory = directory.appendingPathComponent("snapshot")
            let snapshot = try await client.json("POST", "/__understudy/recording/snapshot",
                                                 raw: #"{"directory":"\#(snapshotDirectory.path)"}"#)
            #expect(snapshot.status == 201)
            #expect(try snapshot.decode(Snapshot.self).exchanges == 3)
            await waitUntil(within: .seconds(5)) { (try? Recording(contentsOf: snapshotDirectory))?.entries.count == 3 }
            #expect(try Recording(contentsOf: snapshotDirectory).entries.map(\.request.path).sorted()
                    == ["/products/1", "/products/2", "/products/add"])

            let bad = try await client.json("POST", "/__understudy/recording", raw: #"{"directory":""}"#)
            #expect(bad.status == 400)
            #expect(bad.message?.hasPrefix("Invalid 'directory' - required") == true)
            #expect(try await client.send("DELETE", "/__understudy/recording").status == 409)
        }
    }

    @Test func withoutAnUpstreamRecordingIsRefusedAndReplayMissesAreCounted() async throws {
        try await withDirectory { directory in
            let writer = try RecordingWriter(directory: directory)
            writer.append(RecordedExchange(request: .init(method: "GET", path: "/known"),
                                           response: .init(status: 200, body: Array("{}".utf8))))
            await writer.flushed()
            var configuration = UnderstudyServer.Configuration()
            configuration.replay = try Recording(contentsOf: directory)
            let replay = try UnderstudyServer.start(configuration)
            defer { replay.stop() }
            let client = HTTPTestClient(server: replay)
            let refused = try await client.json("POST", "/__understudy/recording", raw: #"{"directory":"\#(directory.path)"}"#)
            #expect(refused.status == 409)
            #expect(refused.message == "Recording needs an upstream (start with --upstream URL): it records what the upstream answers")
            #expect(try await client.send("/unknown?a=1").status == 502)
            let status = try await client.send("/__understudy/recording").decode(RecordingStatus.self)
            #expect(status.replayedRoutes == ["GET /known"])
            #expect(status.misses == 1)
            #expect(status.recentMisses == ["GET /unknown?a=1"])
        }
    }

    @Test func whatTheWriterCouldNotWriteIsReported() async throws {
        try await withDirectory { directory in
            let upstream = try UnderstudyServer.start()
            defer { upstream.stop() }
            let proxy = try startProxy(to: upstream, recordingInto: directory)
            defer { proxy.stop() }
            let client = HTTPTestClient(server: proxy)
            #expect(try await client.send("/__understudy/recording").decode(RecordingStatus.self).writeFailures == 0)
            // The directory becomes a plain file: nothing can be written into it any more.
            try FileManager.default.removeItem(at: directory)
            try Data("not a directory".utf8).write(to: directory)
            #expect(try await client.send("/products/1").status == 200, "the reply does not wait for the disk")
            await proxy.flushRecording()
            let status = try await client.send("/__understudy/recording").decode(RecordingStatus.self)
            #expect(status.recorded == 1)
            #expect(status.writeFailures == 1)
            #expect(status.lastWriteFailure?.hasPrefix(directory.path) == true, "\(status.lastWriteFailure ?? "")")
        }
    }
}
