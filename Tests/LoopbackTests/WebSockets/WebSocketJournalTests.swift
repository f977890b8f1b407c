import Foundation
import Testing
import Understudy
import UnderstudyControl
import UnderstudyTestSupport

/// A socket's journal entry, over the wire: its messages both ways, with the fault that acted on one, its closes,
/// and its session, in Swift, in the admin API's JSON and through UnderstudyControl.
@Suite(.blocksThreads) struct WebSocketJournalTests {
    @Test func aSocketsEntryRecordsItsMessagesAndCloses() async throws {
        try await withServer { server, client in
            let port = server.port
            let failure: String? = await offThePool {
                do {
                    let socket = try RawWebSocket(port: port, headers: ["X-Understudy-Session": "chat-tests",
                                                                        "X-Understudy-Fault": "duplicate=1"])
                    socket.sendText("one")
                    guard socket.readFrame()?.text == "one", socket.readFrame()?.text == "one" else { return "no echo" }
                    socket.send(0x2, [1, 2, 3, 4])
                    guard socket.readFrame()?.payload == [1, 2, 3, 4] else { return "no binary echo" }
                    socket.send(0x8, [0x03, 0xE8] + Array("done".utf8))
                    guard socket.readFrame()?.closeCode == 1000 else { return "no close answer" }
                    return socket.readUntilEnd().ending == .closed ? nil : "the server did not close"
                } catch {
                    return "\(error)"
                }
            }
            #expect(failure == nil)
            let recorded = await waitUntil(within: .seconds(30)) {
                server.journal.entries(path: "/ws/echo").first?.socket != nil
            }
            try #require(recorded, "no entry for the socket")
            let entry = try #require(server.journal.entries(path: "/ws/echo").first)
            #expect(entry.status == 101 && entry.session == "chat-tests")
            let socket = try #require(entry.socket)
            #expect(socket.records.map { "\($0.direction.rawValue) \($0.kind.rawValue) \($0.bytes)" } == [
                "received text 3", "sent text 3", "sent text 3", "received binary 4", "sent binary 4",
                "received close 4", "sent close 4",
            ])
            #expect(socket.records.map(\.fault) == [nil, nil, "duplicate", nil, nil, nil, nil])
            #expect(socket.records.suffix(2).map(\.closeCode) == [1000, 1000])
            #expect(socket.messages.count == 5 && socket.leftOut == 0)
            #expect(zip(socket.records, socket.records.dropFirst()).allSatisfy { $0.milliseconds <= $1.milliseconds })

            let reply = try await client.send("/__understudy/requests?path=/ws/echo")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
            let first = try #require((json["requests"] as? [[String: Any]])?.first)
            let transcript = try #require(first["socket"] as? [String: Any])
            let records = try #require(transcript["records"] as? [[String: Any]])
            #expect(records.count == 7 && transcript["leftOut"] as? Int == 0)
            #expect(records[2]["fault"] as? String == "duplicate" && records[2]["direction"] as? String == "sent")
            #expect(records[6]["type"] as? String == "close" && records[6]["closeCode"] as? Int == 1000)
            #expect(records[0]["closeCode"] is NSNull && records[0]["ms"] is NSNumber)

            let typed = try await ControlClient(baseURL: server.baseURL).requests(path: "/ws/echo")
            let record = try #require(typed.requests.first?.socket)
            #expect(record.records.map(\.type) == ["text", "text", "text", "binary", "binary", "close", "close"])
            #expect(record.records.map(\.direction).first == "received" && record.records[2].fault == "duplicate")
            #expect(record.records.last?.closeCode == 1000 && record.leftOut == 0)
        }
    }

    /// Any other request's entry has no transcript, in Swift or in JSON.
    @Test func otherRequestsHaveNone() async throws {
        try await withServer { server, client in
            #expect(try await client.send("/products/1").status == 200)
            #expect(server.journal.entries(path: "/products/1").first?.socket == nil)
            let reply = try await client.send("/__understudy/requests?path=/products/1")
            #expect(!String(decoding: reply.body, as: UTF8.self).contains("\"socket\""))
        }
    }
}
