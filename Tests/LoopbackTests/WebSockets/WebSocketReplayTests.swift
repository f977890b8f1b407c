import Foundation
import Testing
import Understudy
import UnderstudyRecording
import UnderstudyTestSupport

/// `--replay` answering an upgrade with a recorded conversation on a real socket: the server's messages in the
/// recorded order, what followed a client message sent once the client sends its own, the Nth upgrade given the Nth
/// recorded conversation, and the socket faults acting on replayed messages as on any socket's.
@Suite(.blocksThreads) struct WebSocketReplayTests {
    private static let recording = Recording(entries: [
        Recording.Entry(
            request: RecordedExchange.Request(method: "GET", path: "/live", query: [.init("room", "a")]),
            responses: [
                RecordedExchange.Response(status: 101, headers: [.init("X-Served-By", "edge-7")], messages: [
                    RecordedSocketMessage(.server, text: #"{"hello":true}"#, milliseconds: 20),
                    RecordedSocketMessage(.client, text: "subscribe", milliseconds: 100),
                    RecordedSocketMessage(.server, text: #"{"price":9.99}"#, milliseconds: 110),
                    RecordedSocketMessage(.server, data: [0, 1, 2, 255], isBinary: true, milliseconds: 130),
                ]),
                RecordedExchange.Response(status: 101, messages: [
                    RecordedSocketMessage(.server, text: "second visit", milliseconds: 0),
                ]),
            ],
            file: "GET/live~room.json"),
    ])

    /// Runs `body` on a socket opened on `target` of a server replaying the recording (off the cooperative pool).
    private func withSocket(_ target: String = "/live?room=a", headers: [String: String] = [:], upstream: Bool = false,
                            _ body: @escaping @Sendable (RawWebSocket, Int) throws -> Void) async throws {
        try await withServer({
            $0.replay = Self.recording
            // Where a miss would go; a recorded socket is answered here, never forwarded.
            if upstream { $0.upstream = try? Upstream(url: "http://127.0.0.1:9") }
        }) { server, _ in
            let port = server.port
            let failure: String? = await offThePool {
                do {
                    try body(RawWebSocket(port: port, path: target, headers: headers), port)
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            #expect(failure == nil)
        }
    }

    @Test func theRecordedConversationIsPlayedInOrderAndAnswersTheClient() async throws {
        try await withSocket(headers: ["Sec-WebSocket-Protocol": "prices.v1"]) { socket, port in
            #expect(socket.response.status == 101)
            #expect(socket.response.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
            // The recorded API's own headers come along; the handshake is this client's.
            #expect(socket.response.header("X-Served-By") == "edge-7")
            #expect(socket.response.header("Sec-WebSocket-Protocol") == "prices.v1")
            #expect(socket.readFrame() == .init(fin: true, opcode: 0x1, masked: false, payload: Array(#"{"hello":true}"#.utf8)))
            socket.sendText("subscribe")
            #expect(socket.readFrame()?.text == #"{"price":9.99}"#)
            #expect(socket.readFrame() == .init(fin: true, opcode: 0x2, masked: false, payload: [0, 1, 2, 255]))
            // The recording is over; the socket stays open, and closes as any does.
            socket.send(0x8, [0x03, 0xE8])
            #expect(socket.readFrame()?.closeCode == 1000)

            // The second upgrade gets the second recorded conversation.
            let second = try RawWebSocket(port: port, path: "/live?room=a")
            #expect(second.readFrame()?.text == "second visit")
        }
    }

    @Test(arguments: [false, true])
    func socketFaultsActOnReplayedMessages(upstream: Bool) async throws {
        try await withSocket(headers: ["X-Understudy-Fault": "drop-after=1; close=1011; message=replayed down"],
                             upstream: upstream) { socket, _ in
            #expect(socket.response.header("X-Understudy-Fault-Applied") == "drop-after=1; close=1011; message=replayed down")
            #expect(socket.readFrame()?.text == #"{"hello":true}"#)
            socket.sendText("subscribe")
            let close = socket.readFrame()
            #expect(close?.closeCode == 1011 && close?.text == "replayed down")
        }
    }

    @Test func aPlainRequestToARecordedSocketIsTold426() async throws {
        try await withServer({ $0.replay = Self.recording }) { _, client in
            let reply = try await client.send("/live?room=a")
            #expect(reply.status == 426)
            #expect(reply.header("Upgrade") == "websocket")
        }
    }
}
