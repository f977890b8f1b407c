import Testing
@testable import Understudy

/// The opening handshake as RFC 6455 §4.2 has a server answer it.
@Suite struct WebSocketHandshakeTests {
    static func headers(_ fields: [String: String]) -> (String) -> String? {
        { name in fields.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    static let valid = ["Upgrade": "websocket", "Connection": "keep-alive, Upgrade", "Sec-WebSocket-Version": "13",
                        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="]

    /// §1.3's example key and accept value.
    @Test func theRFCsExampleKeyGetsItsAcceptValue() throws {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let answer = try WebSocketHandshake.answer(method: "GET", header: Self.headers(Self.valid)).get()
        #expect(answer.headers.map(\.name) == ["Upgrade", "Connection", "Sec-WebSocket-Accept"])
        #expect(answer.subprotocol == nil)
    }

    /// The first subprotocol offered is echoed; permessage-deflate is declined by saying nothing of it.
    @Test func theFirstSubprotocolIsChosenAndExtensionsDeclined() throws {
        var fields = Self.valid
        fields["Sec-WebSocket-Protocol"] = "chat.v2, chat.v1"
        fields["Sec-WebSocket-Extensions"] = "permessage-deflate; client_max_window_bits"
        let answer = try WebSocketHandshake.answer(method: "GET", header: Self.headers(fields)).get()
        #expect(answer.subprotocol == "chat.v2")
        #expect(answer.headers.contains { $0.name == "Sec-WebSocket-Protocol" && $0.value == "chat.v2" })
        #expect(!answer.headers.contains { $0.name == "Sec-WebSocket-Extensions" })
    }

    private static let upgrade: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade"]
    private static let version: HTTPHeaders = ["Sec-WebSocket-Version": "13"]

    @Test(arguments: [
        ("POST", [:], 400, "A WebSocket opens with GET, not POST", [:]),
        ("GET", ["Upgrade": "h2c"], 426, "This path is a WebSocket: send Upgrade: websocket", upgrade),
        ("GET", ["Connection": "keep-alive"], 400, "Connection must include Upgrade", [:]),
        ("GET", ["Sec-WebSocket-Version": "8"], 426, "This server speaks WebSocket version 13, not 8", version),
        ("GET", ["Sec-WebSocket-Key": "c2hvcnQ="], 400, "Sec-WebSocket-Key must be 16 bytes in base64", [:]),
    ] as [(String, [String: String], Int, String, HTTPHeaders)])
    func aBadUpgradeIsRefusedWithItsReason(method: String, change: [String: String], status: Int, message: String,
                                           headers: HTTPHeaders) {
        let fields = Self.valid.merging(change) { $1 }
        guard case .failure(let refusal) = WebSocketHandshake.answer(method: method, header: Self.headers(fields)) else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.status == status && refusal.message == message)
        #expect(refusal.headers == headers)
    }
}
