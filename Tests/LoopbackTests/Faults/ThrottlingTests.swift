import Foundation
import Testing
import Understudy
import UnderstudyFaultSpec
import UnderstudyTestSupport

/// Rates on the wire: a paced download and a paced upload hold their rate within 10 % on bodies of 256 KB and
/// more, a profiled session is throttled while its neighbour is not, and a seeded schedule repeats.
///
/// The slow cases are a few seconds to 17 s each (256 KB at 16 kB/s is 16 s by definition); they are arguments
/// of one test each, so Swift Testing runs them side by side and the suite takes as long as its slowest case.
@Suite struct ThrottlingTests {
    /// `/products?limit=165`: 264,403 bytes, just over 256 KiB, so the 16 kB/s case takes no longer than it must.
    static let largeTarget = "/products?limit=165"

    /// Seconds from writing `request` until the whole response is read, and the response. The socket blocks for
    /// up to 17 s, so it is read on a thread of its own, not one of Swift's few cooperative ones.
    private static func timed(_ server: UnderstudyServer, _ request: [UInt8], timeout: Int = 5)
        async throws -> (seconds: Double, response: RawResponse) {
        let port = server.port
        let (seconds, response) = await offThePool { () -> (Double, RawResponse?) in
            guard let connection = try? RawHTTPConnection(port: port, receiveTimeoutSeconds: timeout) else { return (0, nil) }
            let started = Date()
            connection.write(request)
            let response = connection.readResponse()
            return (Date().timeIntervalSince(started), response)
        }
        return (seconds, try #require(response))
    }

    /// Runs blocking socket work on a dispatch thread and waits for it.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    @Test(arguments: [("16k", 16_000), ("64k", 64_000), ("1m", 1_000_000)])
    func aDownloadHoldsItsRate(rate: String, bytesPerSecond: Int) async throws {
        try await withServer { server, _ in
            let request = "GET \(Self.largeTarget) HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: rate=\(rate)\r\n\r\n"
            let (seconds, response) = try await Self.timed(server, Array(request.utf8))
            #expect(response.body.count >= 256 << 10)
            let achieved = Double(response.body.count) / seconds
            #expect(abs(achieved - Double(bytesPerSecond)) / Double(bytesPerSecond) <= 0.10,
                    "\(rate): \(Int(achieved)) B/s over \(response.body.count) bytes in \(seconds) s")
            // The journal reports the rate it sent at, with the directive that asked for it.
            try #require(await waitUntil(within: .seconds(5)) { server.journal.entries(path: "/products").count == 1 })
            let entry = try #require(server.journal.entries(path: "/products").first)
            #expect(entry.fault == "rate=\(rate)")
            let journaled = Double(try #require(entry.achievedBytesPerSecond))
            #expect(abs(journaled - Double(bytesPerSecond)) / Double(bytesPerSecond) <= 0.10, "\(journaled)")
        }
    }

    @Test(arguments: [("16k", 16_000), ("64k", 64_000)])
    func anUploadIsReadAtItsRate(rate: String, bytesPerSecond: Int) async throws {
        try await withServer { server, _ in
            let body = Array("{\"title\":\"\(String(repeating: "u", count: 256 << 10))\"}".utf8)
            let head = "POST /products/add HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "X-Understudy-Fault: uprate=\(rate)\r\nContent-Length: \(body.count)\r\n\r\n"
            // The kernel takes the last ~100 KB into its buffers long before the server has read them.
            let (seconds, response) = try await Self.timed(server, Array(head.utf8) + body, timeout: 30)
            #expect(response.head.hasPrefix("HTTP/1.1 201"))
            let achieved = Double(body.count) / seconds
            #expect(abs(achieved - Double(bytesPerSecond)) / Double(bytesPerSecond) <= 0.10,
                    "\(rate): \(Int(achieved)) B/s over \(body.count) bytes in \(seconds) s")
        }
    }

    /// The same two requests at once, one in an Edge session (30 kB/s, 840 ms of latency), one in a session with
    /// no profile: they finish at least ten times apart.
    @Test func aProfiledSessionIsThrottledAndItsNeighbourIsNot() async throws {
        try await withServer { server, client in
            server.faults.startSession("slow", profile: .edge)
            server.faults.startSession("fast")
            _ = try await client.send("/products/1")  // URLSession's first connection is not what is measured
            async let slow = Self.seconds { try await client.send("/products?limit=100", headers: ["X-Understudy-Session": "slow"]) }
            async let fast = Self.seconds { try await client.send("/products?limit=100", headers: ["X-Understudy-Session": "fast"]) }
            let (slowSeconds, slowReply) = try await slow
            let (fastSeconds, fastReply) = try await fast
            #expect(slowReply.body == fastReply.body)
            #expect(slowReply.header("X-Understudy-Fault-Applied") == "profile=edge")
            #expect(fastReply.header("X-Understudy-Fault-Applied") == nil)
            // 840 ms of latency, then ~160 KB at 30 kB/s: about 6 s, against milliseconds (a loaded machine's
            // hundreds of them included).
            #expect(slowSeconds >= 0.84 + Double(slowReply.body.count) / 30_000 * 0.9)
            // Ten times apart by the server's clock (arrival to done), which a loaded test machine's scheduling of
            // the client does not blur; the client's own clock agrees when the machine is idle.
            try #require(await waitUntil(within: .seconds(5)) {
                server.journal.entries(session: "slow").count == 1 && server.journal.entries(session: "fast").count == 1
            })
            let slowServed = try #require(server.journal.entries(session: "slow").first).durationMilliseconds
            let fastServed = try #require(server.journal.entries(session: "fast").first).durationMilliseconds
            #expect(slowServed >= 10 * fastServed, "\(slowServed) ms against \(fastServed) ms (client: \(slowSeconds) s, \(fastSeconds) s)")
        }
    }

    private static func seconds(_ body: () async throws -> HTTPTestClient.Reply) async throws -> (Double, HTTPTestClient.Reply) {
        let started = Date()
        let reply = try await body()
        return (Date().timeIntervalSince(started), reply)
    }

    /// Three runs of one seeded session: the pauses come after the same bytes (exactly: nothing is sent during a
    /// pause, so the bytes read before each gap are the pause's offset) and start at the same time from the first
    /// byte. On an idle machine the times agree within 2 ms; the bound is 25 ms, as a loop turn on a machine
    /// running the whole suite on two cores can come that late.
    @Test func theSameSeedGivesTheSameSchedule() async throws {
        try await withServer { server, _ in
            var runs: [[(milliseconds: Double, bytes: Int)]] = []
            let port = server.port
            for _ in 0..<3 {
                server.faults.startSession("seeded", seed: 99)
                let request = "GET \(Self.largeTarget) HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Session: seeded\r\n"
                    + "X-Understudy-Fault: rate=1m; stall=200ms..400ms\r\n\r\n"
                let arrivals = await Self.offThePool { () -> [(Date, Int)] in
                    guard let connection = try? RawHTTPConnection(port: port) else { return [] }
                    var arrivals: [(Date, Int)] = []
                    var total = 0
                    connection.write(request)
                    _ = connection.readResponse { count in
                        total += count
                        arrivals.append((Date(), total))
                    }
                    return arrivals
                }
                let first = try #require(arrivals.first?.0)
                // A pause is a gap of 150 ms or more between reads (slots are 10 ms apart at this rate).
                let pauses = zip(arrivals, arrivals.dropFirst()).filter { $1.0.timeIntervalSince($0.0) >= 0.15 }
                runs.append(pauses.map { before, _ in (before.0.timeIntervalSince(first) * 1_000, before.1) })
            }
            let description = runs.map { $0.map { "\(Int($0.milliseconds)) ms after \($0.bytes) bytes" } }
            #expect(runs[0].count == 5, "\(description)")  // one per started 64 KiB of 264,403 bytes
            for run in runs.dropFirst() {
                #expect(run.map(\.bytes) == runs[0].map(\.bytes), "\(description)")
                #expect(zip(run, runs[0]).allSatisfy { abs($0.milliseconds - $1.milliseconds) <= 25 }, "\(description)")
            }
        }
    }
}
