import UnderstudyJSON

/// Issues and checks DummyJSON's HS256 JSON Web Tokens.
struct TokenService: Sendable {
    /// Why a token was refused, in jsonwebtoken's words (DummyJSON surfaces them).
    enum Failure: Error, Equatable {
        /// Not three dot-separated segments.
        case malformed
        /// A segment is not base64url JSON.
        case undecodable
        /// The header names another algorithm.
        case wrongAlgorithm
        case badSignature
        case expired
    }

    /// Access tokens last this long unless the client asks otherwise (`expiresInMins`).
    static let defaultLifetimeMinutes = 60
    /// The longest lifetime a client may ask for, and the refresh token's lifetime.
    static let maximumLifetimeMinutes = 43_200

    private let secret: [UInt8]

    init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// A signed token carrying `claims` followed by `iat` and `exp`.
    func sign(claims: [JSONObject.Entry], issuedAt: Int, lifetimeSeconds: Int) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        var payload = JSONObject(claims)
        payload["iat"] = .number(JSONNumber(issuedAt))
        payload["exp"] = .number(JSONNumber(issuedAt + lifetimeSeconds))
        let signingInput = header + "." + Base64URL.encode(JSONWriter.encode(.object(payload)))
        return signingInput + "." + Base64URL.encode(HMACSHA256.mac(key: secret, message: Array(signingInput.utf8)))
    }

    /// The token's claims when it is well-formed, correctly signed and not expired at `now` (Unix seconds).
    func verify(_ token: String, now: Int) throws(Failure) -> JSONObject {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        // Anything that is not three base64url segments (e.g. `bearer <token>` with a lower-case prefix left on)
        // is malformed, which DummyJSON reports as `Invalid/Expired Token!`.
        guard segments.count == 3, !segments[0].isEmpty, !segments[1].isEmpty,
              segments.allSatisfy({ $0.utf8.allSatisfy(Base64URL.isAlphabet) }) else { throw .malformed }
        guard let headerBytes = Base64URL.decode(segments[0]), let payloadBytes = Base64URL.decode(segments[1]),
              case .object(let header)? = try? JSONParser.parse(headerBytes),
              case .object(let payload)? = try? JSONParser.parse(payloadBytes)
        else { throw .undecodable }
        guard header["alg"]?.stringValue == "HS256" else { throw .wrongAlgorithm }
        let signingInput = Array(token.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        guard let signature = Base64URL.decode(segments[2]),
              HMACSHA256.constantTimeEquals(signature, HMACSHA256.mac(key: secret, message: signingInput))
        else { throw .badSignature }
        if let expiry = payload["exp"]?.doubleValue, Double(now) >= expiry { throw .expired }
        return payload
    }
}
