import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// `/ws/echo` on a real socket, read by a client written apart from the server's codec: the opening handshake, the
/// echo, control frames, the closing handshake, and each bad input closed with the code RFC 6455 names while the
/// server keeps serving.
@Suite(.blocksThreads) struct WebSocketEchoTests {
    /// Runs `body` on a socket opened on a fresh server (off the cooperative pool: the reads block).
    private func withSocket(headers: [String: String] = [:],
                            _ body: @escaping @Sendable (RawWebSocket) throws -> Void) async throws {
        try await withServer { server, _ in
            let port = server.port
            let failure: String? = await offThePool {
                do {
                    try body(RawWebSocket(port: port, headers: headers))
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            #expect(failure == nil)
        }
    }

    @Test func theUpgradeIsAnsweredAsTheRFCSays() async throws {
        try await withSocket(headers: ["Sec-WebSocket-Protocol": "chat.v2, chat.v1",
                                       "Sec-WebSocket-Extensions": "permessage-deflate"]) { socket in
            #expect(socket.response.status == 101)
            #expect(socket.response.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
            #expect(socket.response.header("Upgrade") == "websocket")
            #expect(socket.response.header("Connection") == "Upgrade")
            #expect(socket.response.header("Sec-WebSocket-Protocol") == "chat.v2")
            // permessage-deflate is declined by not naming it.
            #expect(socket.response.header("Sec-WebSocket-Extensions") == nil)
            #expect(socket.response.header("Transfer-Encoding") == nil)
        }
    }

    @Test func messagesComeBackAsTheyWereSent() async throws {
        try await withSocket { socket in
            socket.sendText("hello, understudy")
            #expect(socket.readFrame() == .init(fin: true, opcode: 0x1, masked: false, payload: Array("hello, understudy".utf8)))
            let binary = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            socket.send(0x2, binary)
            let echoed = socket.readFrame()
            #expect(echoed?.opcode == 0x2 && echoed?.payload == binary && echoed?.masked == false)
        }
    }

    /// A fragmented message is echoed whole; a ping between its fragments is answered at once.
    @Test func fragmentsAreReassembledAndAPingBetweenThemIsAnswered() async throws {
        try await withSocket { socket in
            socket.send(0x1, Array("frag".utf8), fin: false)
            socket.send(0x9, Array("are you there".utf8))
            socket.send(0x0, Array("ment".utf8), fin: false)
            socket.send(0x0, Array("ed".utf8))
            #expect(socket.readFrame() == .init(fin: true, opcode: 0xA, masked: false, payload: Array("are you there".utf8)))
            #expect(socket.readFrame()?.text == "fragmented")
        }
    }

    /// The client's close is answered with its code and reason, then the server closes the TCP connection.
    @Test func theClosingHandshakeEndsTheConnection() async throws {
        try await withSocket { socket in
            socket.send(0x8, [0x03, 0xE9] + Array("bye".utf8))
            let answer = socket.readFrame()
            #expect(answer?.closeCode == 1001 && answer?.text == "bye")
            #expect(socket.readUntilEnd().ending == .closed)
        }
    }

    @Test(arguments: [
        // Unmasked: a client's frames must be masked.
        (RawWebSocket.frame(0x1, Array("hi".utf8), mask: nil), 1002),
        // A reserved bit with no extension agreed.
        (RawWebSocket.frame(0x1, Array("hi".utf8), rsv: 0x40), 1002),
        // A reserved opcode.
        (RawWebSocket.frame(0x3, []), 1002),
        // A control frame over 125 bytes.
        (RawWebSocket.frame(0x9, Array(repeating: 0x61, count: 126)), 1002),
        // A continuation with nothing to continue.
        (RawWebSocket.frame(0x0, Array("x".utf8)), 1002),
        // Text that is not UTF-8.
        (RawWebSocket.frame(0x1, [0xC3, 0x28]), 1007),
        // Over the 1 MiB a message may hold: refused on its length, before its payload comes.
        (Array(RawWebSocket.frame(0x2, Array(repeating: 0, count: (1 << 20) + 1)).prefix(14)), 1009),
    ] as [([UInt8], Int)])
    func aBadFrameClosesWithItsCodeAndTheServerServesOn(bytes: [UInt8], code: Int) async throws {
        try await withServer { server, client in
            let port = server.port
            let ending: (Int?, RawHTTPConnection.Ending)? = await offThePool {
                guard let socket = try? RawWebSocket(port: port) else { return nil }
                socket.connection.write(bytes)
                return (socket.readFrame()?.closeCode, socket.readUntilEnd().ending)
            }
            #expect(ending?.0 == code)
            #expect(ending?.1 == .closed)
            let status = try await client.send("/products/1").status
            #expect(status == 200)
        }
    }

    /// A plain GET to a socket's path is told to upgrade; a bad upgrade gets the status the RFC names.
    @Test(arguments: [
        ([String: String](), 101),
        (["Upgrade": ""], 426),
        (["Sec-WebSocket-Version": "8"], 426),
        (["Sec-WebSocket-Key": ""], 400),
        (["Connection": "keep-alive"], 400),
    ])
    func anUpgradeMissingItsPartsIsRefused(change: [String: String], status: Int) async throws {
        try await withServer { server, _ in
            let port = server.port
            let response = await offThePool { try? RawWebSocket(port: port, headers: change).response }
            #expect(response?.status == status)
            guard status != 101 else { return }
            #expect(response?.header("Content-Type") == "application/json; charset=utf-8")
            let body = String(decoding: response?.body ?? [], as: UTF8.self)
            #expect(body.contains("\"message\""))
            if status == 426 { #expect(response?.header("Upgrade") == "websocket" || response?.header("Sec-WebSocket-Version") == "13") }
        }
    }

    /// A fault on the upgrade request refuses it with its status, as on any request.
    @Test func aFaultRefusesTheUpgrade() async throws {
        try await withServer { server, _ in
            let port = server.port
            let response = await offThePool {
                try? RawWebSocket(port: port, headers: ["X-Understudy-Fault": "status=503"]).response
            }
            #expect(response?.status == 503)
        }
    }

    /// A socket the client drops is freed and journaled with its 101; the server serves on.
    @Test func aDroppedSocketIsJournaledAndTheServerServesOn() async throws {
        try await withServer { server, client in
            let port = server.port
            let opened = await offThePool { () -> Bool in
                guard let socket = try? RawWebSocket(port: port) else { return false }
                socket.sendText("one")
                return socket.readFrame()?.text == "one"
            }
            #expect(opened)
            let journaled = await waitUntil(within: .seconds(30)) {
                let journal = try await client.send("/__understudy/requests?limit=5").decode(JournalReply.self)
                return journal.requests.contains { $0.path == "/ws/echo" && $0.status == 101 }
            }
            #expect(journaled)
            let status = try await client.send("/products/1").status
            #expect(status == 200)
        }
    }
}
