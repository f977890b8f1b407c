import Testing
import UnderstudyWebSocket
@testable import Understudy

/// A relayed socket's decisions on the upstream's bytes, however they are cut: the upgrade it writes, the 101 it
/// checks, the refusals it passes on whole, and the frames it reads as a client reads a server's.
@Suite struct WebSocketRelayTests {
    private static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    private func relay() throws -> WebSocketRelay {
        let client = HTTPRequest(method: "GET", target: "/ws/live?room=a", headers: [
            "Host": "localhost", "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": Self.key,
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Extensions": "permessage-deflate",
            "Sec-WebSocket-Protocol": "v2, v1", "X-Understudy-Fault": "lag=1s",
        ])
        let upstream = try Upstream(url: "http://upstream.test:8080/api")
        return WebSocketRelay(forwarding: UpstreamRequest(forwarding: client, to: upstream, clientAddress: "10.0.0.1"),
                              maximumMessageBytes: 1 << 16)
    }

    private static let accepted = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: v1\r\nX-Served-By: edge-7\r\n\r\n"

    /// The upgrade keeps the client's key, version and offers, leaves out its extensions and Understudy's own
    /// headers, and asks for the upgrade itself (the client's `Upgrade` and `Connection` are hop-by-hop).
    @Test func theUpgradeIsTheClientsWithoutWhatCannotCross() throws {
        let upgrade = String(decoding: try relay().upgrade, as: UTF8.self)
        #expect(upgrade.hasPrefix("GET /api/ws/live?room=a HTTP/1.1\r\nHost: upstream.test:8080\r\n"))
        #expect(upgrade.contains("Sec-WebSocket-Key: \(Self.key)\r\n") && upgrade.contains("Sec-WebSocket-Protocol: v2, v1\r\n"))
        #expect(!upgrade.contains("permessage-deflate") && !upgrade.contains("X-Understudy"))
        #expect(upgrade.hasSuffix("Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n"))
        #expect(upgrade.ranges(of: "Upgrade: websocket").count == 1)
    }

    /// A 101 read a byte at a time, with a frame right behind it: accepted once, then the frame.
    @Test func a101CutAnywhereIsAcceptedAndWhatFollowsIsRead() throws {
        var relay = try relay()
        let bytes = Array(Self.accepted.utf8) + WebSocketFrame(.text, Array("hi".utf8)).encoded()
        let events = bytes.flatMap { relay.receive([$0]) }
        guard case .accepted(let headers) = events.first else { Issue.record("not accepted: \(events)"); return }
        #expect(headers["Sec-WebSocket-Protocol"] == "v1" && headers["X-Served-By"] == "edge-7")
        #expect(Array(events.dropFirst()) == [.message(.text, Array("hi".utf8))])
        #expect(relay.receive(WebSocketFrame(.ping, [7]).encoded() + WebSocketFrame.close(.serviceRestart, reason: "bye").encoded())
            == [.ping([7]), .close(.serviceRestart, "bye")])
    }

    @Test(arguments: [
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: wrong\r\n\r\n",
         "its 101 did not accept this upgrade (Upgrade or Sec-WebSocket-Accept is wrong)"),
        ("SSH-2.0-OpenSSH_9.2\r\n\r\n", "it answered the upgrade with something that is not HTTP"),
    ])
    func aWrongAnswerIsAFailure(answer: String, reason: String) throws {
        var relay = try relay()
        #expect(relay.receive(Array(answer.utf8)) == [.failed(reason)])
    }

    /// A refusal is passed on whole, however its body is framed: a length (across reads), chunks, or the end of
    /// the connection.
    @Test func aRefusalIsPassedOnWhole() throws {
        var lengthed = try relay()
        #expect(lengthed.receive(Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 16\r\nX-Why: token\r\n\r\n{\"message\":".utf8)) == [])
        #expect(lengthed.receive(Array("\"no\"}".utf8))
            == [.refused(status: 403, headers: ["X-Why": "token"], body: Array(#"{"message":"no"}"#.utf8))])

        var chunked = try relay()
        #expect(chunked.receive(Array("HTTP/1.1 426 Upgrade Required\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nver".utf8)) == [])
        #expect(chunked.receive(Array("s\r\n3;x=y\r\nion\r\n0\r\n\r\n".utf8))
            == [.refused(status: 426, headers: [:], body: Array("version".utf8))])

        var untilClosed = try relay()
        #expect(untilClosed.receive(Array("HTTP/1.0 503 Service Unavailable\r\n\r\ndown".utf8)) == [])
        #expect(untilClosed.ended(failure: nil) == [.refused(status: 503, headers: [:], body: Array("down".utf8))])
    }

    @Test func anAnswerCutShortIsAFailure() throws {
        var silent = try relay()
        #expect(silent.ended(failure: nil) == [.failed("it closed the connection without answering the upgrade")])
        var cut = try relay()
        _ = cut.receive(Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 10\r\n\r\nabc".utf8))
        #expect(cut.ended(failure: nil) == [.failed("it closed the connection mid-reply")])
        var refused = try relay()
        #expect(refused.ended(failure: "could not connect: connection refused") == [.failed("could not connect: connection refused")])
        var endless = try relay()
        #expect(endless.receive([UInt8](repeating: 0x41, count: WebSocketRelay.maximumHeadBytes + 1))
            == [.failed("its answer's head is over 16 KiB")])
    }

    /// A masked frame from the upstream breaks the protocol (a server never masks): the relay reports it with the
    /// code its socket to the upstream closes with, and reads nothing after.
    @Test func aMaskedFrameFromTheUpstreamBreaksTheRelay() throws {
        var relay = try relay()
        _ = relay.receive(Array(Self.accepted.utf8))
        let events = relay.receive(WebSocketFrame(.text, [1]).encoded(mask: [1, 2, 3, 4]))
        guard case .broke(let failure) = events.last else { Issue.record("not broken: \(events)"); return }
        #expect(failure.code == .protocolError)
        #expect(relay.receive(WebSocketFrame(.text, [1]).encoded()) == [])
    }

    /// What goes up is masked, with a fresh key each time, and reads back as what was sent.
    @Test func framesForTheUpstreamAreMasked() {
        let first = WebSocketRelay.frame(.text, Array("hello".utf8))
        let second = WebSocketRelay.frame(.text, Array("hello".utf8))
        #expect(first[1] & 0x80 != 0 && first.count == 2 + 4 + 5)
        var reader = WebSocketReader(maximumMessageBytes: 64)
        #expect(reader.receive(first + second) == [.message(.text, Array("hello".utf8)), .message(.text, Array("hello".utf8))])
        #expect(WebSocketRelay.dechunked(Array("5\r\nhello\r\n".utf8)) == nil)
    }
}
