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
@Suite(.blocksThreads) struct ThrottlingTests {
    /// `/products?limit=165`: 264,403 bytes, just over 256 KiB, so the 16 kB/s case takes no longer than it must.
    static let largeTarget = "/products?limit=165"

    /// Seconds from writing `request` until the whole response is read, and the response. The socket blocks for
    /// up to 17 s, so it is read on a thread of its own, not one of Swift's few cooperative ones.
    private static func timed(_ server: UnderstudyServer, _ request: [UInt8], timeout: Int = 30)
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

    /// A rate is never beaten (the schedule is fixed from the start, so nothing can go early), and is held to within
    /// a factor a loaded machine cannot reach by scheduling alone. How close it comes is a benchmark's figure
    /// (`make bench`'s connections paced at `rate=16k`), not a test's: on two cores running the whole suite, one
    /// late turn at the end of a 0.26 s transfer is already 10 %.
    static func holds(_ achieved: Double, _ rate: Int) -> Bool {
        achieved <= Double(rate) * 1.03 && achieved >= Double(rate) * 0.5
    }

    @Test(arguments: [("16k", 16_000), ("64k", 64_000), ("1m", 1_000_000)])
    func aDownloadHoldsItsRate(rate: String, bytesPerSecond: Int) async throws {
        try await withServer { server, _ in
            let request = "GET \(Self.largeTarget) HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: rate=\(rate)\r\n\r\n"
            let (seconds, response) = try await Self.timed(server, Array(request.utf8))
            #expect(response.body.count >= 256 << 10)
            let achieved = Double(response.body.count) / seconds
            #expect(Self.holds(achieved, bytesPerSecond), "\(rate): \(Int(achieved)) B/s over \(response.body.count) bytes in \(seconds) s")
            // The journal reports the rate it sent at, with the directive that asked for it.
            try #require(await waitUntil(within: .seconds(5)) { server.journal.entries(path: "/products").count == 1 })
            let entry = try #require(server.journal.entries(path: "/products").first)
            #expect(entry.fault == "rate=\(rate)")
            let journaled = Double(try #require(entry.achievedBytesPerSecond))
            #expect(Self.holds(journaled, bytesPerSecond), "\(journaled)")
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
            #expect(Self.holds(achieved, bytesPerSecond), "\(rate): \(Int(achieved)) B/s over \(body.count) bytes in \(seconds) s")
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
    /// pause, so the bytes read before each gap are the pause's offset), and each lasts as long as the range allows
    /// at least. No bound on lateness: a machine running the whole suite on two cores can make any gap longer.
    @Test func theSameSeedGivesTheSameSchedule() async throws {
        try await withServer { server, _ in
            // Each run: the gaps of 150 ms or more between reads (slots are 10 ms apart at this rate), as the bytes
            // read before the gap and its length. A loaded machine can add a gap or lengthen one, never remove or
            // shorten a stall, so the runs are compared on the gaps they all have; that the durations a seed draws
            // are the same is RatePacerTests' (no clock there).
            var runs: [[Int: Double]] = []
            let port = server.port
            for _ in 0..<3 {
                server.faults.startSession("seeded", seed: 99)
                let request = "GET \(Self.largeTarget) HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Session: seeded\r\n"
                    + "X-Understudy-Fault: rate=1m; stall=200ms..400ms\r\n\r\n"
                let arrivals = await offThePool { () -> [(Date, Int)] in
                    guard let connection = try? RawHTTPConnection(port: port, receiveTimeoutSeconds: 30) else { return [] }
                    var arrivals: [(Date, Int)] = []
                    var total = 0
                    connection.write(request)
                    _ = connection.readResponse { count in
                        total += count
                        arrivals.append((Date(), total))
                    }
                    return arrivals
                }
                try #require(!arrivals.isEmpty)
                var gaps: [Int: Double] = [:]
                for (before, after) in zip(arrivals, arrivals.dropFirst()) where after.0.timeIntervalSince(before.0) >= 0.15 {
                    gaps[before.1] = after.0.timeIntervalSince(before.0) * 1_000
                }
                runs.append(gaps)
            }
            let description = runs.map { $0.sorted { $0.key < $1.key }.map { "\(Int($0.value)) ms after \($0.key) bytes" } }
            let common = runs.dropFirst().reduce(Set(runs[0].keys)) { $0.intersection($1.keys) }
            #expect(common.count == 5, "\(description)")  // one per started 64 KiB of 264,403 bytes
            // Every stall lasts at least the range's least (less the 10 ms slot it may start in).
            #expect(runs.allSatisfy { run in common.allSatisfy { run[$0]! >= 190 } }, "\(description)")
        }
    }
}
