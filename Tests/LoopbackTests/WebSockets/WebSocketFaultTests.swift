import Foundation
import Testing
import Understudy
import UnderstudyFaultSpec
import UnderstudyTestSupport

/// Socket faults on a real socket, read by the test's own RFC 6455 client: each directive, asked for by header,
/// `_fault` or a rule, does to `/ws/feed` and `/ws/echo` what the fault cookbook says, and the server serves on.
@Suite(.blocksThreads) struct WebSocketFaultTests {
    /// Opens `path` with `headers` on a fresh server and runs `body` off the cooperative pool (the reads block);
    /// then checks the server still answers.
    private func withSocket(_ path: String, headers: [String: String] = [:], timeout: Int = 5,
                            configure: @escaping @Sendable (UnderstudyServer) throws -> Void = { _ in },
                            _ body: @escaping @Sendable (RawWebSocket) throws -> Void) async throws {
        try await withServer { server, client in
            try configure(server)
            let port = server.port
            let failure: String? = await offThePool {
                do {
                    try body(RawWebSocket(port: port, path: path, headers: headers, receiveTimeoutSeconds: timeout))
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            #expect(failure == nil)
            #expect(try await client.send("/products/1").status == 200)
        }
    }

    /// The frames read until the server's close frame (included) or the connection's end.
    private func framesUntilClose(_ socket: RawWebSocket) -> [RawWebSocket.Frame] {
        var frames: [RawWebSocket.Frame] = []
        while let frame = socket.readFrame() {
            frames.append(frame)
            if frame.opcode == 0x8 { break }
        }
        return frames
    }

    @Test func theFeedSendsItsUpdatesThenClosesNormally() async throws {
        try await withSocket("/ws/feed?interval=10&count=3") { socket in
            #expect(socket.response.status == 101)
            let frames = framesUntilClose(socket)
            #expect(frames.count == 4)
            for frame in frames.prefix(3) {
                let update = try JSONSerialization.jsonObject(with: Data(frame.payload)) as? [String: Any]
                #expect(frame.opcode == 0x1 && update?["price"] != nil && update?["stock"] != nil)
            }
            #expect(frames.last?.closeCode == 1000 && frames.last?.text == "the feed is complete")
            socket.send(0x8, [0x03, 0xE8])
            #expect(socket.readUntilEnd().ending == .closed)
        }
    }

    /// The feed's updates are the event stream's, byte for byte, under the same session seed.
    @Test func theFeedSendsTheStreamsUpdates() async throws {
        try await withServer { server, client in
            let port = server.port
            let payloads = await offThePool { () -> [[UInt8]] in
                guard let socket = try? RawWebSocket(port: port, path: "/ws/feed?interval=10&count=2",
                                                     headers: ["X-Understudy-Session": "feed-a"]) else { return [] }
                return [socket.readFrame(), socket.readFrame()].compactMap { $0?.payload }
            }
            let stream = try await client.send("/products/stream?interval=10&count=2",
                                               headers: ["X-Understudy-Session": "feed-a"])
            let data = stream.text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { Array($0.dropFirst(6).utf8) }
            #expect(payloads.count == 2 && payloads == data)
        }
    }

    @Test func dropAfterClosesWithTheCodeAndReasonAsked() async throws {
        try await withSocket("/ws/feed?interval=10",
                             headers: ["X-Understudy-Fault": "drop-after=2; close=1011; message=database down"]) { socket in
            #expect(socket.response.header("X-Understudy-Fault-Applied") == "drop-after=2; close=1011; message=database down")
            let frames = framesUntilClose(socket)
            #expect(frames.map(\.opcode) == [0x1, 0x1, 0x8])
            #expect(frames.last?.closeCode == 1011 && frames.last?.text == "database down")
            socket.send(0x8, [0x03, 0xF3])
            #expect(socket.readUntilEnd().ending == .closed)
        }
    }

    @Test func closeAfterClosesOnTime() async throws {
        try await withSocket("/ws/echo?_fault=close-after%3D200ms%3B%20close%3D1012") { socket in
            let started = ContinuousClock.now
            let close = socket.readFrame()
            #expect(close?.closeCode == 1012)
            #expect(ContinuousClock.now - started >= .milliseconds(150))
        }
    }

    @Test func resetAfterDropsTheConnectionWithoutAClose() async throws {
        try await withSocket("/ws/feed?interval=10", headers: ["X-Understudy-Fault": "reset-after=2"]) { socket in
            #expect(socket.readFrame()?.opcode == 0x1)
            #expect(socket.readFrame()?.opcode == 0x1)
            let rest = socket.readUntilEnd()
            #expect(rest.bytes.isEmpty && rest.ending == .reset)
        }
    }

    /// The second message is cut inside its frame: the client holds half a frame when the connection resets.
    @Test func cutMidEventResetsInsideAFrame() async throws {
        try await withSocket("/ws/echo", headers: ["X-Understudy-Fault": "cut-mid-event=2"]) { socket in
            socket.sendText("first")
            #expect(socket.readFrame()?.text == "first")
            let long = String(repeating: "y", count: 300)
            socket.sendText(long)
            let rest = socket.readUntilEnd()
            #expect(rest.ending == .reset)
            #expect(!rest.bytes.isEmpty && rest.bytes.count < 304)
        }
    }

    /// After the first echo the socket is silent: no echo, no pong, no answer to a close.
    @Test func stallAfterStopsEverythingIncludingPongs() async throws {
        try await withSocket("/ws/echo", headers: ["X-Understudy-Fault": "stall-after=1"], timeout: 1) { socket in
            socket.sendText("one")
            #expect(socket.readFrame()?.text == "one")
            socket.sendText("two")
            socket.send(0x9, Array("ping".utf8))
            #expect(socket.readFrame() == nil)
            #expect(socket.readUntilEnd().ending == .timedOut)
        }
    }

    @Test(arguments: [("corrupt=utf8", UInt8(0x1), UInt8(0), false), ("corrupt=rsv", 0x1, 0x40, false),
                      ("corrupt=mask", 0x1, 0, true)])
    func corruptBreaksTheFrameAsNamed(fault: String, opcode: UInt8, rsv: UInt8, masked: Bool) async throws {
        try await withSocket("/ws/echo", headers: ["X-Understudy-Fault": fault]) { socket in
            socket.sendText("fine")
            let frame = socket.readFrame()
            #expect(frame?.opcode == opcode && frame?.rsv == rsv && frame?.masked == masked)
            if fault == "corrupt=utf8" { #expect(frame.map { String(validatingUTF8: $0.payload.map { CChar(bitPattern: $0) } + [0]) == nil } == true) }
            socket.sendText("next")
            #expect(socket.readFrame()?.text == "next")
        }
    }

    @Test func skipDuplicateAndChunkShapeTheMessages() async throws {
        try await withSocket("/ws/echo", headers: ["X-Understudy-Fault": "skip=1; duplicate=2; chunk=2"]) { socket in
            socket.sendText("a")
            socket.sendText("bcd")
            // "a" is left out; "bcd" comes twice, each time as frames of two bytes.
            let frames = (0..<4).compactMap { _ in socket.readFrame() }
            #expect(frames.map(\.opcode) == [0x1, 0x0, 0x1, 0x0])
            #expect(frames.map(\.fin) == [false, true, false, true])
            #expect(frames.map(\.text) == ["bc", "d", "bc", "d"])
        }
    }

    @Test func lagHoldsEachMessage() async throws {
        try await withSocket("/ws/echo", headers: ["X-Understudy-Fault": "lag=300ms"]) { socket in
            let started = ContinuousClock.now
            socket.sendText("slow")
            #expect(socket.readFrame()?.text == "slow")
            #expect(ContinuousClock.now - started >= .milliseconds(250))
        }
    }

    /// `profile=edge` (30,000 bytes a second) paces the socket's bytes: a 30,000-byte echo takes about a second.
    @Test func aNetworkProfilePacesTheSocketsBytes() async throws {
        try await withSocket("/ws/echo", headers: ["X-Understudy-Fault": "profile=edge"], timeout: 30) { socket in
            #expect(socket.response.header("X-Understudy-Fault-Applied") == "profile=edge")
            let payload = [UInt8](repeating: 0x2A, count: 30_000)
            socket.send(0x2, payload)
            let started = ContinuousClock.now
            #expect(socket.readFrame()?.payload == payload)
            #expect(ContinuousClock.now - started >= .milliseconds(800), "a 30 KB echo at 30 KB/s")
        }
    }

    /// A rule over the admin API's grammar, from Swift here, closes each new socket of its session at once.
    @Test func aRuleFaultsTheSocketsOfItsSession() async throws {
        try await withSocket("/ws/echo", headers: ["X-Understudy-Session": "demo"], configure: { server in
            try server.faults.add(FaultRule(match: .init(path: "/ws/*"), fault: "close=4001; message=kicked", session: "demo"))
        }) { socket in
            let close = socket.readFrame()
            #expect(close?.closeCode == 4001 && close?.text == "kicked")
        }
    }

    /// A refused upgrade carries the fault's status and Retry-After; a bad feed query is a 400 naming it.
    @Test func refusalsAreClear() async throws {
        try await withServer { server, _ in
            let port = server.port
            let (refused, badQuery) = await offThePool {
                (try? RawWebSocket(port: port, headers: ["X-Understudy-Fault": "status=503; retry-after=2"]).response,
                 try? RawWebSocket(port: port, path: "/ws/feed?interval=5").response)
            }
            #expect(refused?.status == 503 && refused?.header("Retry-After") == "2")
            #expect(badQuery?.status == 400)
            let message = String(decoding: badQuery?.body ?? [], as: UTF8.self)
            #expect(message.contains("Invalid 'interval'"))
        }
    }
}
