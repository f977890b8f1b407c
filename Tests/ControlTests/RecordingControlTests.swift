import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyControl
import UnderstudyTestSupport

/// Recording through `UnderstudyControl`: a proxy (`understudy --upstream`) and its upstream (a second `understudy`),
/// each in a process of its own; the directory is read as a reviewer would, file by file.
@Suite(.blocksThreads) struct RecordingControlTests {
    /// A fresh directory, removed afterwards.
    private func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("control-record-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// `understudy --upstream <a second understudy>`, both stopped afterwards.
    private func withProxy<T>(_ body: (_ proxy: ServerProcess, _ upstream: ServerProcess) async throws -> T) async throws -> T {
        try await ServerProcess.with { upstream in
            try await ServerProcess.with(["--upstream", upstream.baseURL.absoluteString]) { proxy in
                try await body(proxy, upstream)
            }
        }
    }

    /// The text of the file at `relative` under `directory`, once it exists.
    private func text(of relative: String, in directory: URL) async -> String? {
        let file = directory.appendingPathComponent(relative)
        await waitUntil(within: .seconds(10)) { FileManager.default.fileExists(atPath: file.path) }
        return try? String(contentsOf: file, encoding: .utf8)
    }

    /// The exchange files under `directory` (every file but the manifest) by relative path, once there are `count`.
    private func exchangeFiles(in directory: URL, count: Int) async -> [String: String] {
        func read() -> [String: String] {
            let base = directory.standardizedFileURL.path + "/"
            let urls = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
            var files: [String: String] = [:]
            for url in urls where url.pathExtension == "json" && url.lastPathComponent != "understudy-recording.json" {
                files[String(url.standardizedFileURL.path.dropFirst(base.count))] = try? String(contentsOf: url, encoding: .utf8)
            }
            return files
        }
        await waitUntil(within: .seconds(10)) { read().count >= count }
        return read()
    }

    private func send(_ path: String, to server: ServerProcess, method: String = "GET", json: String? = nil,
                      bearer: String? = nil) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: server.baseURL.absoluteString + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (body, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }

    private struct Login: Decodable { let accessToken: String }

    @Test func startRecordStopAndReadTheDirectory() async throws {
        try await withDirectory { directory in
            try await withProxy { proxy, upstream in
                let control = proxy.control
                let idle = try await control.recordingStatus()
                #expect(idle.upstream == upstream.baseURL.absoluteString)
                #expect(!idle.isRecording && idle.directory == nil && idle.redacted == nil && idle.replayedRoutes == nil)

                let live = directory.appendingPathComponent("live")
                let started = try await control.startRecording(into: live.path, redactedFields: ["sku"])
                #expect(started.isRecording && started.directory == live.path && started.redacted == true)
                #expect(try await send("/products/1", to: proxy).status == 200)
                let login = try await send("/auth/login", to: proxy, method: "POST",
                                           json: #"{"username":"emilys","password":"emilyspass"}"#)
                #expect(login.status == 200)
                let token = try JSONDecoder().decode(Login.self, from: login.body).accessToken
                #expect(try await send("/auth/me", to: proxy, bearer: token).status == 200)

                let stopped = try await control.stopRecording()
                #expect(stopped.recorded == 3 && stopped.skipped == 0 && stopped.directory == live.path)
                #expect(stopped.recordedRoutes == ["GET /auth/me", "GET /products/1", "POST /auth/login"])
                #expect(try await control.recordingStatus().isRecording == false)
                let again = await #expect(throws: ControlError.self) { try await control.stopRecording() }
                #expect(again?.kind == .conflict && again?.status == 409 && again?.message == "Nothing is being recorded")

                // The directory holds each exchange as a reviewer reads it, with no secret and no redacted field.
                let manifest = try #require(await text(of: "understudy-recording.json", in: live))
                #expect(manifest.contains(#""redactedFields": ["#) && manifest.contains("sku"))
                let files = await exchangeFiles(in: live, count: 3)
                #expect(files.count == 3)
                // A request with a body is filed under its digest (`POST/auth/login~1f2e3d4c.json`).
                #expect(files.keys.contains { $0.hasPrefix("POST/auth/login~") })
                let product = try #require(files["GET/products/1.json"])
                #expect(product.contains("Silk Veil Foundation") && !product.contains("BEA-VEL-SIL-246"))
                let me = try #require(files["GET/auth/me.json"])
                for secret in ["emilyspass", token] {
                    #expect(!files.values.contains { $0.contains(secret) }, "a secret left in the recording")
                }
                #expect(me.contains("emily.sutherland@x.dummyjson.com"))

                // Recorded or not, the last exchanges are kept: a snapshot writes them after the fact.
                #expect(try await send("/products/2", to: proxy).status == 200)
                let snapshotDirectory = directory.appendingPathComponent("snapshot")
                let snapshot = try await control.snapshotRecording(into: snapshotDirectory.path)
                #expect(snapshot.directory == snapshotDirectory.path && snapshot.exchanges == 4)
                #expect(await text(of: "GET/products/2.json", in: snapshotDirectory)?.contains(#""status": 200"#) == true)
            }
        }
    }

    @Test func theJournalSaysWhatTheUpstreamDid() async throws {
        try await withProxy { proxy, upstream in
            #expect(try await send("/products/1", to: proxy).status == 200)
            let forwarded = try #require(try await proxy.control.requests(path: "/products/1").requests.first)
            let outcome = try #require(forwarded.upstream)
            #expect(outcome.status == 200 && outcome.failure == nil)
            #expect((outcome.milliseconds ?? -1) >= 0)
            // The upstream answered the request itself: its own entry has no upstream.
            let served = try #require(try await upstream.control.requests(path: "/products/1").requests.first)
            #expect(served.status == 200 && served.upstream == nil)
        }
    }

    @Test func aReplayListsItsRoutesAndItsMisses() async throws {
        try await withDirectory { directory in
            try await withProxy { proxy, _ in
                try await proxy.control.startRecording(into: directory.path)
                #expect(try await send("/products/1", to: proxy).status == 200)
                try await proxy.control.stopRecording()
            }
            #expect(await text(of: "GET/products/1.json", in: directory) != nil)
            try await ServerProcess.with(["--replay", directory.path]) { replay in
                let control = replay.control
                #expect(try await send("/products/1", to: replay).status == 200)
                #expect(try await send("/products/2?x=1", to: replay).status == 502)
                let status = try await control.recordingStatus()
                #expect(status.upstream == nil && status.replayedRoutes == ["GET /products/1"])
                #expect(status.misses == 1 && status.recentMisses == ["GET /products/2?x=1"])
                // With no upstream there is nothing to record: the refusal says why.
                let refused = await #expect(throws: ControlError.self) {
                    try await control.startRecording(into: directory.appendingPathComponent("more").path)
                }
                #expect(refused?.kind == .conflict)
                #expect(refused?.message?.hasPrefix("Recording needs an upstream (start with --upstream URL)") == true)
                let snapshot = await #expect(throws: ControlError.self) {
                    try await control.snapshotRecording(into: directory.appendingPathComponent("more").path)
                }
                #expect(snapshot?.kind == .conflict && snapshot?.status == 409)
            }
        }
    }

    @Test func aDirectoryTheServerCannotUseIsABadRequest() async throws {
        try await withProxy { proxy, _ in
            let empty = await #expect(throws: ControlError.self) { try await proxy.control.startRecording(into: "") }
            #expect(empty?.kind == .badRequest && empty?.message?.hasPrefix("Invalid 'directory' - required") == true)
            let status = try await proxy.control.recordingStatus()
            #expect(!status.isRecording && status.recorded == 0)
        }
    }
}
