import Foundation
import Testing
import Understudy
import UnderstudyRecording
import UnderstudyTestSupport

/// `understudy --upstream URL --record DIR` killed with SIGKILL while it writes: the directory it leaves loads,
/// every file in it parses, and `understudy --replay DIR` starts on it.
@Suite(.blocksThreads) struct RecordingKillTests {
    /// The `.json` files below `directory` that a loader reads (hidden ones, a writer's temporary files, are not),
    /// relative.
    private func visibleFiles(in directory: URL) -> [String] {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: directory.path)) ?? []
        return paths.filter { path in path.hasSuffix(".json") && !path.split(separator: "/").contains { $0.hasPrefix(".") } }
    }

    /// Starts `understudy` with `arguments`; returns it with the port from its first line.
    private func launch(_ arguments: [String]) throws -> (ChildProcess, Int) {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: arguments)
        let firstLine = try #require(child.firstLine(within: 30), "stderr: \(child.errors)")
        let port = try #require(firstLine.split(separator: ":").last.flatMap { Int($0) }, "\(firstLine)")
        return (child, port)
    }

    @Test func aRecordingKilledMidWriteLoadsWithNoHalfWrittenFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let upstream = try UnderstudyServer.start()
        defer { upstream.stop() }
        let (proxy, port) = try launch(["--upstream", upstream.baseURL.absoluteString, "--record", directory.path,
                                        "--port", "0", "--quiet"])

        // A burst of whole catalogues (~290 KB each) on 60 connections at once: 30 distinct requests, each a file
        // of its own, and 30 repeats of one request, a sequence whose file is read and rewritten whole, longer each
        // time, for every answer.
        var connections: [RawHTTPConnection] = []
        for index in 0..<60 {
            let target = index.isMultiple(of: 2) ? "/products?limit=0&n=\(index)" : "/products?limit=0"
            let connection = try RawHTTPConnection(port: port)
            connection.write("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            connections.append(connection)
        }
        // SIGKILL once a file is down and while the writer's next temporary file is there (polled closely: a write
        // takes a millisecond or so), so the kill lands mid-write.
        let folder = directory.appendingPathComponent("GET").path
        let deadline = Date().addingTimeInterval(60)
        var recorded = false
        var writing = false
        while Date() < deadline, !(recorded && writing) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            recorded = recorded || names.contains { !$0.hasPrefix(".") && $0.hasSuffix(".json") }
            writing = names.contains { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
            if !(recorded && writing) { usleep(200) }
        }
        proxy.send(SIGKILL)
        #expect(proxy.waitForExit() == 128 + SIGKILL)
        connections.removeAll()
        #expect(recorded, "nothing was recorded: \(proxy.errors)")
        #expect(writing, "no write was seen under way")

        // Every file a loader reads is whole JSON, and the recording loads from them.
        let files = visibleFiles(in: directory)
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(file) is not whole JSON")
        }
        let recording = try Recording(contentsOf: directory)
        #expect(recording.entries.count == files.filter { $0 != Recording.manifestName }.count)
        #expect(!recording.entries.isEmpty)
        for entry in recording.entries {
            #expect(!entry.responses.isEmpty, "\(entry.file)")
            for response in entry.responses {
                #expect(response.status == 200, "\(entry.file)")
                // Every product the page announced is there: no answer was cut short.
                let body = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                let total = try #require(body?["total"] as? Int, "\(entry.file)")
                #expect(total > 100 && (body?["products"] as? [Any])?.count == total, "\(entry.file)")
            }
        }

        // And the server replays it.
        let (replay, replayPort) = try launch(["--replay", directory.path, "--port", "0", "--quiet"])
        let answers = recording.entries.reduce(0) { $0 + $1.responses.count }
        let described = await waitUntil(within: .seconds(30)) {
            replay.output.contains("Replaying \(recording.entries.count) recorded requests (\(answers) answers)")
        }
        #expect(described, "\(replay.output)")
        let first = try #require(recording.entries.first)
        let query = first.request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let connection = try RawHTTPConnection(port: replayPort)
        connection.write("GET \(first.request.path)?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
        replay.send(SIGTERM)
        #expect(replay.waitForExit() == 0, "stderr: \(replay.errors)")
    }
}
