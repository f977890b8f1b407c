import COpenSSL
import Foundation

/// The opening handshake of RFC 6455 §4.2 as a server answers it: the upgrade request checked, and either the 101's
/// headers or the refusal, with the status and the reason the RFC names.
struct WebSocketHandshake: Equatable {
    /// The GUID every accept key is made with (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The 101's headers: `Upgrade`, `Connection`, `Sec-WebSocket-Accept`, and the subprotocol chosen, if any.
    let headers: [(name: String, value: String)]
    /// The subprotocol chosen: the first the client offered, or nil when it offered none.
    let subprotocol: String?

    static func == (lhs: WebSocketHandshake, rhs: WebSocketHandshake) -> Bool {
        lhs.subprotocol == rhs.subprotocol && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }

    /// Answers an upgrade request given its method and a header lookup (case-insensitive names; repeated fields
    /// joined with commas). A refusal is 400, or 426 for no upgrade (with `Upgrade`) or another version (with
    /// `Sec-WebSocket-Version: 13`, so the client can retry with it, §4.4).
    static func answer(method: String, header: (String) -> String?) -> Result<WebSocketHandshake, APIError> {
        guard method == "GET" else {
            return .failure(APIError(400, "A WebSocket opens with GET, not \(method)"))
        }
        guard tokens(header("Upgrade")).contains("websocket") else {
            // A plain request to a socket's path: 426 names the protocol to upgrade to (RFC 9110 §15.5.22).
            return .failure(APIError(426, "This path is a WebSocket: send Upgrade: websocket",
                                     headers: ["Upgrade": "websocket", "Connection": "Upgrade"]))
        }
        guard tokens(header("Connection")).contains("upgrade") else {
            return .failure(APIError(400, "Connection must include Upgrade"))
        }
        let version = header("Sec-WebSocket-Version")?.trimmingCharacters(in: .whitespaces)
        guard version == "13" else {
            return .failure(APIError(426, "This server speaks WebSocket version 13, not \(version ?? "none")",
                                     headers: ["Sec-WebSocket-Version": "13"]))
        }
        guard let key = header("Sec-WebSocket-Key")?.trimmingCharacters(in: .whitespaces),
              Data(base64Encoded: key)?.count == 16 else {
            return .failure(APIError(400, "Sec-WebSocket-Key must be 16 bytes in base64"))
        }
        // The first subprotocol offered is echoed; extensions (permessage-deflate) are declined by leaving them out.
        let offered = (header("Sec-WebSocket-Protocol") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var headers = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept(key: key))]
        if let chosen = offered.first { headers.append(("Sec-WebSocket-Protocol", chosen)) }
        return .success(WebSocketHandshake(headers: headers.map { (name: $0.0, value: $0.1) }, subprotocol: offered.first))
    }

    /// `Sec-WebSocket-Accept` for a key: base64 of the SHA-1 of the key and the GUID.
    static func accept(key: String) -> String {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_Digest(input, input.count, &digest, &length, EVP_sha1(), nil) == 1 else { return "" }
        return Data(digest[..<Int(length)]).base64EncodedString()
    }

    /// A header's comma-separated tokens, lower-cased.
    static func tokens(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}
