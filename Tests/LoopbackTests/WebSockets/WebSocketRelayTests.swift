import Foundation
import Testing
@testable import Understudy
import UnderstudyLocking
import UnderstudyRecording
import UnderstudyTestSupport

/// `--upstream` relaying an upgrade on real sockets: a second Understudy is the upstream, so what it sends and how it
/// closes are known. Messages go both ways, the upstream's answer is the client's (its 101 and subprotocol, or its
/// refusal), the socket faults act on what the upstream sends, the upstream's close or drop reaches the client, and
/// `--record` keeps the conversation so `--replay` can play it with the upstream gone.
@Suite(.blocksThreads) struct WebSocketRelayTests {
    /// Runs `body` with an upstream and a proxy in front of it (`configure` adds to the proxy's configuration).
    private func withRelay(_ configure: (inout UnderstudyServer.Configuration) throws -> Void = { _ in },
                           _ body: (_ upstream: UnderstudyServer, _ proxy: UnderstudyServer) async throws -> Void)
        async throws {
        let upstream = try UnderstudyServer.start()
        defer { upstream.stop() }
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = try Upstream(url: upstream.baseURL.absoluteString)
        try configure(&configuration)
        let proxy = try UnderstudyServer.start(configuration)
        defer { proxy.stop() }
        try await body(upstream, proxy)
    }

    /// Runs `body` on a socket opened through `proxy`, off the cooperative pool; a thrown error fails the test.
    private func socket(_ proxy: UnderstudyServer, _ path: String = "/ws/echo", headers: [String: String] = [:],
                        _ body: @escaping @Sendable (RawWebSocket) throws -> Void) async {
        let port = proxy.port
        let failure: String? = await offThePool {
            do {
                try body(RawWebSocket(port: port, path: path, headers: headers))
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(failure == nil)
    }

    @Test func messagesGoBothWaysAndTheUpstreamsAnswerIsTheClients() async throws {
        try await withRelay { _, proxy in
            await socket(proxy, headers: ["Sec-WebSocket-Protocol": "prices.v2, prices.v1"]) { socket in
                #expect(socket.response.status == 101)
                // This client's key, answered; the subprotocol the upstream chose.
                #expect(socket.response.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
                #expect(socket.response.header("Sec-WebSocket-Protocol") == "prices.v2")
                socket.sendText("hello")
                #expect(socket.readFrame() == .init(fin: true, opcode: 0x1, masked: false, payload: Array("hello".utf8)))
                // A fragmented message goes up whole, and a ping between its fragments is answered on the way.
                socket.send(0x2, [1, 2], fin: false)
                socket.send(0x9, Array("are you there".utf8))
                socket.send(0x0, [3, 255], fin: true)
                #expect(socket.readFrame() == .init(fin: true, opcode: 0xA, masked: false, payload: Array("are you there".utf8)))
                #expect(socket.readFrame() == .init(fin: true, opcode: 0x2, masked: false, payload: [1, 2, 3, 255]))
                socket.send(0x8, [0x03, 0xE8])
                #expect(socket.readFrame()?.closeCode == 1000)
            }
            // The journal has the socket with the upstream's answer.
            try #require(await waitUntil(within: .seconds(10)) { proxy.journal.entries(path: "/ws/echo").count == 1 })
            let entry = try #require(proxy.journal.entries(path: "/ws/echo").first)
            #expect(entry.status == 101 && entry.upstreamStatus == 101)
            #expect(entry.socket?.messages.map(\.direction) == [.received, .sent, .received, .sent])
        }
    }

    @Test func theUpstreamsFeedAndItsCloseReachTheClient() async throws {
        try await withRelay { _, proxy in
            await socket(proxy, "/ws/feed?interval=10&count=3") { socket in
                let frames = (0..<4).compactMap { _ in socket.readFrame() }
                #expect(frames.prefix(3).allSatisfy { $0.opcode == 0x1 && $0.text.hasPrefix(#"{"id":"#) })
                #expect(frames.last?.closeCode == 1000 && frames.last?.text == "the feed is complete")
            }
        }
    }

    /// The upstream closing with a code of its own, or dropping its connection with no close: the client sees
    /// the same.
    @Test func theUpstreamsCloseOrDropIsTheClients() async throws {
        try await withRelay { upstream, proxy in
            try upstream.faults.add(FaultRule(match: .init(path: "/ws/echo"), fault: "drop-after=1; close=1012; message=restarting",
                                              times: 1))
            await socket(proxy) { socket in
                socket.sendText("one")
                #expect(socket.readFrame()?.text == "one")
                socket.sendText("two")
                let close = socket.readFrame()
                #expect(close?.closeCode == 1012 && close?.text == "restarting")
            }
            try upstream.faults.add(FaultRule(match: .init(path: "/ws/echo"), fault: "reset-after=1", times: 1))
            await socket(proxy) { socket in
                socket.sendText("one")
                #expect(socket.readFrame()?.text == "one")
                socket.sendText("two")
                // No close frame: the connection just ends.
                #expect(socket.readFrame() == nil)
            }
        }
    }

    @Test(arguments: [
        ("drop-after=1; close=1011; message=relay down", 1011),
        ("close-after=0ms; close=4001; message=kicked", 4001),
    ])
    func socketFaultsActOnWhatTheUpstreamSends(fault: String, code: Int) async throws {
        try await withRelay { _, proxy in
            await socket(proxy, headers: ["X-Understudy-Fault": fault]) { socket in
                #expect(socket.response.header("X-Understudy-Fault-Applied") == fault)
                socket.sendText("one")
                var frame = socket.readFrame()
                if frame?.opcode == 0x1 {
                    #expect(frame?.text == "one")
                    socket.sendText("two")
                    frame = socket.readFrame()
                }
                #expect(frame?.closeCode == code)
            }
        }
    }

    /// The upstream refusing the upgrade is the client's refusal; an upstream that is not there is a 502; a fault
    /// asking for a status answers without the upstream.
    @Test func refusalsAndFailuresAreHTTPReplies() async throws {
        try await withRelay { upstream, proxy in
            await socket(proxy, "/ws/nope") { socket in
                #expect(socket.response.status == 404)
                #expect(String(decoding: socket.response.body, as: UTF8.self) == #"{"message":"Route GET /ws/nope not found"}"#)
            }
            await socket(proxy, headers: ["X-Understudy-Fault": "status=503; retry-after=2"]) { socket in
                #expect(socket.response.status == 503 && socket.response.header("Retry-After") == "2")
            }
            #expect(upstream.journal.entries(path: "/ws/echo").isEmpty)
        }
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = try Upstream(url: "http://127.0.0.1:9")
        let proxy = try UnderstudyServer.start(configuration)
        defer { proxy.stop() }
        await socket(proxy) { socket in
            #expect(socket.response.status == 502)
            #expect(String(decoding: socket.response.body, as: UTF8.self).contains("The upstream http://127.0.0.1:9 failed"))
        }
    }

    /// `--replay` with an upstream behind it: an upgrade the recording does not hold is relayed there as a socket
    /// (forwarded as a plain request, the upstream would see no upgrade and answer 426).
    @Test func aReplaysMissedUpgradeIsRelayedToItsUpstream() async throws {
        let recording = Recording(entries: [Recording.Entry(
            request: RecordedExchange.Request(method: "GET", path: "/recorded"),
            responses: [RecordedExchange.Response(status: 200, body: Array("{}".utf8))], file: "GET/recorded.json")])
        try await withRelay({ $0.replay = recording }) { _, proxy in
            await socket(proxy) { socket in
                #expect(socket.response.status == 101)
                socket.sendText("past the recording")
                #expect(socket.readFrame()?.text == "past the recording")
            }
        }
    }

    /// An upstream that takes the connection and never answers: a 504 once `--upstream-timeout` is up.
    @Test func anUpstreamThatNeverAnswersIsA504() async throws {
        // Listening, never accepting: the kernel completes the connection, nobody reads the upgrade.
        let held = HeldPort(listening: true)
        let port = held.port
        defer { withExtendedLifetime(held) {} }
        try #require(port > 0)
        var upstream = try Upstream(url: "http://127.0.0.1:\(port)")
        upstream.timeoutSeconds = 1
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = upstream
        let proxy = try UnderstudyServer.start(configuration)
        defer { proxy.stop() }
        await socket(proxy) { socket in
            #expect(socket.response.status == 504)
            #expect(String(decoding: socket.response.body, as: UTF8.self)
                == #"{"message":"The upstream http://127.0.0.1:\#(port) did not answer in time: no answer within 1 s"}"#)
        }
    }

    /// An upstream message over the relay's 1 MiB limit: the upstream did nothing wrong, so the client hears 1009
    /// and the limit, not 1014. The upstream is answered by hand: its 101, then a frame head announcing 1 MiB + 1.
    @Test func anUpstreamMessageOverTheLimitIs1009() async throws {
        let held = HeldPort(listening: true)
        let port = held.port
        defer { withExtendedLifetime(held) {} }
        try #require(port > 0)
        let upstreamHeard = Locked<[UInt8]>([])
        Thread {
            let connection = held.acceptConnection()
            guard connection >= 0 else { return }
            defer { close(connection) }
            var head: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: head, as: UTF8.self).contains("\r\n\r\n") {
                let count = recv(connection, &chunk, chunk.count, 0)
                guard count > 0 else { return }
                head += chunk.prefix(count)
            }
            let key = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("sec-websocket-key:") }?.split(separator: ":")[1]
                .trimmingCharacters(in: .whitespaces) ?? ""
            let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(WebSocketHandshake.accept(key: key))\r\n\r\n"
            let length = (1 << 20) + 1
            let frame: [UInt8] = [0x82, 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) }
            _ = (Array(answer.utf8) + frame + [0, 1, 2]).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            // What the relay says back (its close), until it hangs up.
            while true {
                let count = recv(connection, &chunk, chunk.count, 0)
                guard count > 0 else { return }
                upstreamHeard.withLock { $0 += chunk.prefix(count) }
            }
        }.start()
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = try Upstream(url: "http://127.0.0.1:\(port)")
        let proxy = try UnderstudyServer.start(configuration)
        defer { proxy.stop() }
        await socket(proxy) { socket in
            #expect(socket.response.status == 101)
            let close = socket.readFrame()
            #expect(close?.closeCode == 1009)
            #expect(close?.text == "the upstream sent a message over 1048576 bytes, over the relay's limit")
        }
        // The upstream was told too, masked as a client's close is: 1009.
        #expect(await waitUntil(within: .seconds(10)) {
            let heard = upstreamHeard.withLock { $0 }
            return heard.count >= 8 && heard[0] == 0x88 && heard[1] & 0x80 != 0
                && (heard[6] ^ heard[2], heard[7] ^ heard[3]) == (0x03, 0xF1)
        })
    }

    /// Runs `converse` on a socket through a relay that records, then closes it with 1000: the recording, and the
    /// socket's answer in it.
    private func recorded(_ converse: @escaping @Sendable (RawWebSocket) -> Void) async throws
        -> (recording: Recording, answer: RecordedExchange.Response) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withRelay({ $0.record = try RecordingWriter(directory: directory) }) { _, proxy in
            await socket(proxy) { socket in
                converse(socket)
                socket.send(0x8, [0x03, 0xE8])
                #expect(socket.readFrame()?.closeCode == 1000)
            }
            try #require(await waitUntil(within: .seconds(10)) { proxy.journal.entries(path: "/ws/echo").count == 1 })
            await proxy.flushRecording()
        }
        let recording = try Recording(contentsOf: directory)
        let answer = try #require(recording.entries.first { $0.request.path == "/ws/echo" }?.responses.first)
        return (recording, answer)
    }

    @Test func aRelayedConversationIsRecordedWithoutItsSecretsAndReplays() async throws {
        let secret = #"{"token":"s3cret-token-value"}"#
        let (recording, answer) = try await recorded { socket in
            socket.sendText("hello")
            #expect(socket.readFrame()?.text == "hello")
            socket.sendText(secret)
            #expect(socket.readFrame()?.text == secret)
        }
        #expect(answer.status == 101)
        #expect(answer.messages.map(\.sender) == [.client, .server, .client, .server])
        let texts = answer.messages.map { String(decoding: $0.data, as: UTF8.self) }
        #expect(texts[0] == "hello" && texts[1] == "hello")
        #expect(!texts.contains { $0.contains("s3cret-token-value") } && texts[2].contains("understudy-redacted-"))

        // The upstream is gone: the recording plays the conversation back.
        var configuration = UnderstudyServer.Configuration()
        configuration.replay = recording
        let replay = try UnderstudyServer.start(configuration)
        defer { replay.stop() }
        await socket(replay) { socket in
            #expect(socket.response.status == 101)
            socket.sendText("hello")
            #expect(socket.readFrame()?.text == "hello")
        }
    }

    /// A recording keeps 8 MiB of a socket's messages: what comes after is counted in `messagesLeftOut`, so the
    /// file says it is cut, and the messages kept have no gap.
    @Test func aRecordedConversationPastItsLimitSaysWhatItLeftOut() async throws {
        let (_, answer) = try await recorded { socket in
            // Five echoes of 1 MiB (10 MiB both ways; eight messages fit), then a small one.
            let mebibyte = [UInt8](repeating: 0x5A, count: 1 << 20)
            for _ in 0..<5 {
                socket.send(0x2, mebibyte)
                #expect(socket.readFrame()?.payload.count == 1 << 20)
            }
            socket.sendText("bye")
            #expect(socket.readFrame()?.text == "bye")
        }
        #expect(answer.messages.count == 8 && answer.messages.allSatisfy { $0.data.count == 1 << 20 })
        #expect(answer.messages.map(\.sender) == Array(repeating: [.client, .server], count: 4).flatMap { $0 })
        #expect(answer.messagesLeftOut == 4)
    }

    /// A wss upstream: the socket goes over TLS to a second Understudy with a CA the test makes; an untrusted
    /// certificate is a 502 saying why.
    @Test func aSecureUpstreamIsRelayedOverTLS() async throws {
        try await TLSServerFixture.with { fixture in
            var upstream = try Upstream(url: fixture.url)
            upstream.timeoutSeconds = 5
            upstream.certificateAuthorityFile = fixture.authority.caCertificatePath
            var configuration = UnderstudyServer.Configuration()
            configuration.upstream = upstream
            let trusted = try UnderstudyServer.start(configuration)
            defer { trusted.stop() }
            await socket(trusted) { socket in
                #expect(socket.response.status == 101)
                socket.sendText("over tls")
                #expect(socket.readFrame()?.text == "over tls")
            }
            configuration.upstream?.certificateAuthorityFile = nil
            let untrusted = try UnderstudyServer.start(configuration)
            defer { untrusted.stop() }
            await socket(untrusted) { socket in
                #expect(socket.response.status == 502)
                #expect(String(decoding: socket.response.body, as: UTF8.self).contains("certificate verify failed"))
            }
        }
    }
}
