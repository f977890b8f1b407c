import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// A replayed route is the built-in route on the wire: `/products/1` recorded from one server and replayed by
/// another answers every fault with the same bytes and the same ending as the DummyJSON route does.
@Suite(.blocksThreads) struct ReplayWireParityTests {
    /// One exchange on a raw socket: every byte the server sent, and how the connection ended. `Connection: close`
    /// so that a whole reply ends too.
    private static func exchange(_ server: UnderstudyServer, fault: String) throws -> (bytes: [UInt8], ending: RawHTTPConnection.Ending) {
        let connection = try RawHTTPConnection(port: server.port)
        let faultLine = fault.isEmpty ? "" : "X-Understudy-Fault: \(fault)\r\n"
        connection.write("GET /products/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(faultLine)\r\n")
        return connection.readUntilEnd()
    }

    /// `/products/1` as a fresh built-in server answers it, as a recording.
    private static func recordProduct() throws -> (Recording, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
        let upstream = try UnderstudyServer.start()
        defer { upstream.stop() }
        let (bytes, _) = try exchange(upstream, fault: "")
        let end = try #require(RawResponse.headEnd(in: bytes))
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let headers = lines.dropFirst().compactMap { line -> RecordedExchange.Header? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return RecordedExchange.Header(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let writer = try RecordingWriter(directory: directory)
        // The window's counters and the reset time are the replaying server's own, as on its built-in routes.
        writer.append(RecordedExchange(request: .init(method: "GET", path: "/products/1"),
                                       response: .init(status: 200, headers: headers.filter { !$0.name.hasPrefix("X-RateLimit") },
                                                       body: Array(bytes[(end + 4)...]))))
        writer.flush()
        return (try Recording(contentsOf: directory), directory)
    }

    /// The bytes less the lines that differ from one second or one server to the next, and less DummyJSON's
    /// rate-limit window, which the built-in routes send and a replay does not (the recorded API never sent it;
    /// a 429 or a `rate-limit` fault sends counters on both, as the fault asks).
    private static func stable(_ bytes: [UInt8], fault: String) -> String {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
            .filter { !$0.hasPrefix("Date: ") && !$0.hasPrefix("X-RateLimit-Reset: ") }
            .filter { fault.hasPrefix("rate-limit") || !$0.hasPrefix("X-RateLimit-") }
            .joined(separator: "\r\n")
    }

    @Test(arguments: [
        "", "delay=20ms", "status=503", "status=429; retry-after=2", "status=500; message=boom", "truncate=40",
        "truncate=50%", "truncate-chunked", "chunks=3/60ms", "rate=64kB/s", "malformed", "malformed=shape", "empty",
        "reset", "reset=after-headers", "garbage", "expire-token", "rate-limit=5/10s",
    ])
    func aFaultOnAReplayedRouteIsTheFaultOnTheBuiltInRoute(fault: String) throws {
        let (recording, directory) = try Self.recordProduct()
        defer { try? FileManager.default.removeItem(at: directory) }
        let builtIn = try UnderstudyServer.start()
        defer { builtIn.stop() }
        var configuration = UnderstudyServer.Configuration()
        configuration.replay = recording
        let replaying = try UnderstudyServer.start(configuration)
        defer { replaying.stop() }

        let expected = try Self.exchange(builtIn, fault: fault)
        let replayed = try Self.exchange(replaying, fault: fault)
        #expect(!expected.bytes.isEmpty || fault == "empty" || fault.hasPrefix("reset"))
        #expect(Self.stable(replayed.bytes, fault: fault) == Self.stable(expected.bytes, fault: fault))
        if !fault.hasPrefix("rate-limit"), !fault.hasPrefix("status=429") {
            #expect(!String(decoding: replayed.bytes, as: UTF8.self).contains("X-RateLimit-"), "no counters the API never sent")
        }
        #expect(replayed.ending == expected.ending)
    }
}
