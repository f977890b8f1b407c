import Foundation
import Testing
import Understudy
import UnderstudyControl
import UnderstudyTestSupport

/// The open sockets as the admin API sees and steers them, and `/ws/chat`'s rooms, on real sockets: a chat message
/// reaches the room's other sockets only; `POST /__understudy/sockets/send` pushes to the sockets a path, session
/// or id picks; a socket is closed with a code, or reset, by its id; the list follows them.
@Suite(.blocksThreads) struct WebSocketHubTests {
    /// One admin call over its own connection, from the blocking side: the status and the JSON body.
    private static func admin(_ port: Int, _ method: String, _ path: String, _ body: String = "") -> (Int, [String: Any]) {
        guard let connection = try? RawHTTPConnection(port: port, receiveTimeoutSeconds: 5) else { return (0, [:]) }
        connection.write("\(method) /__understudy\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                         + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        guard let response = connection.readResponse() else { return (0, [:]) }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return (response.status ?? 0, object ?? [:])
    }

    private func blocking(_ body: @escaping @Sendable (Int) throws -> Void) async throws {
        try await withServer { server, _ in
            let port = server.port
            let failure: String? = await offThePool {
                do {
                    try body(port)
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            #expect(failure == nil)
        }
    }

    @Test func aChatMessageReachesTheRoomsOtherSocketsOnly() async throws {
        try await blocking { port in
            let alice = try RawWebSocket(port: port, path: "/ws/chat?room=ios", receiveTimeoutSeconds: 30)
            let bob = try RawWebSocket(port: port, path: "/ws/chat?room=ios", receiveTimeoutSeconds: 30)
            let carol = try RawWebSocket(port: port, path: "/ws/chat?room=android", receiveTimeoutSeconds: 30)
            alice.sendText("ship it")
            #expect(bob.readFrame()?.text == "ship it")
            carol.sendText("android only")
            bob.sendText("ack")
            // Each socket's first frames show what it was sent: alice not her own message, carol nothing of ios's.
            #expect(alice.readFrame()?.text == "ack")
            #expect(WebSocketHubTests.admin(port, "POST", "/sockets/send", #"{"text": "end"}"#).1["sent"] as? Int == 3)
            #expect(alice.readFrame()?.text == "end")
            #expect(bob.readFrame()?.text == "end")
            #expect(carol.readFrame()?.text == "end")
        }
    }

    @Test func theAdminAPIListsPushesToAndClosesSockets() async throws {
        try await blocking { port in
            let feed = try RawWebSocket(port: port, path: "/ws/feed?interval=60000",
                                        headers: ["X-Understudy-Session": "demo"])
            let echo = try RawWebSocket(port: port, path: "/ws/echo")
            echo.sendText("hi")
            #expect(echo.readFrame()?.text == "hi")

            let (status, listed) = WebSocketHubTests.admin(port, "GET", "/sockets")
            let sockets = listed["sockets"] as? [[String: Any]] ?? []
            #expect(status == 200 && sockets.count == 2)
            #expect(sockets.first?["path"] as? String == "/ws/feed" && sockets.first?["session"] as? String == "demo")
            #expect(sockets.last?["received"] as? Int == 1 && sockets.last?["sent"] as? Int == 1)

            let pushed = WebSocketHubTests.admin(port, "POST", "/sockets/send", #"{"text": "flash sale", "session": "demo"}"#)
            #expect(pushed.0 == 200 && pushed.1["sent"] as? Int == 1)
            #expect(feed.readFrame()?.text == "flash sale")

            let feedID = sockets.first?["id"] as? String ?? "?"
            let closed = WebSocketHubTests.admin(port, "POST", "/sockets/\(feedID)/close", #"{"code": 1012, "reason": "restarting"}"#)
            #expect(closed.0 == 200 && closed.1["closed"] as? String == feedID)
            let close = feed.readFrame()
            #expect(close?.closeCode == 1012 && close?.text == "restarting")

            let echoID = sockets.last?["id"] as? String ?? "?"
            #expect(WebSocketHubTests.admin(port, "POST", "/sockets/\(echoID)/close", #"{"reset": true}"#).0 == 200)
            #expect(echo.readUntilEnd().ending == .reset)
        }
    }

    @Test(arguments: [
        ("/sockets/send", "{}", 400, "Invalid 'text'"),
        ("/sockets/send", #"{"text": 5}"#, 400, "Invalid 'text'"),
        ("/sockets/send", #"{"text": "x", "room": "a"}"#, 400, "Unknown field 'room'"),
        ("/sockets/ws-99/close", "{}", 404, "No open WebSocket with id 'ws-99'"),
        ("/sockets/ws-1/close", #"{"code": 1005}"#, 400, "Invalid 'code'"),
        ("/sockets/ws-1/close", #"{"reset": true, "code": 1000}"#, 400, "Invalid 'reset'"),
    ])
    func badCallsAreClear(path: String, body: String, status: Int, message: String) async throws {
        try await blocking { port in
            let (got, object) = WebSocketHubTests.admin(port, "POST", path, body)
            #expect(got == status)
            #expect((object["message"] as? String)?.contains(message) == true, "\(object)")
        }
    }

    /// The same from Swift, through UnderstudyControl's typed calls.
    @Test func controlClientListsPushesToAndClosesASocket() async throws {
        try await withServer { server, _ in
            let port = server.port
            let control = ControlClient(baseURL: server.baseURL)
            async let frames = offThePool { () -> [String] in
                // Waits as long as the steps on the other side may take on a loaded machine: the frames are what ends it.
                guard let socket = try? RawWebSocket(port: port, path: "/ws/feed?interval=60000",
                                                     headers: ["X-Understudy-Session": "typed"],
                                                     receiveTimeoutSeconds: 60) else { return [] }
                return [socket.readFrame(), socket.readFrame()].map { frame in
                    frame.map { $0.closeCode.map { "close \($0) \(frame?.text ?? "")" } ?? $0.text } ?? "none"
                }
            }
            var listed: [SocketInfo] = []
            for _ in 0..<100 where listed.isEmpty {
                listed = try await control.sockets()
                if listed.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(listed.map(\.path) == ["/ws/feed"] && listed.first?.session == "typed")
            #expect(try await control.send(toSockets: "hello from Swift", session: "typed") == 1)
            #expect(try await control.send(toSockets: "nobody", session: "other") == 0)
            try await control.closeSocket(listed[0].id, code: 4002, reason: "test over")
            #expect(await frames == ["hello from Swift", "close 4002 test over"])
            await #expect(throws: ControlError.self) { try await control.closeSocket("ws-99") }
        }
    }
}
