import Testing
@testable import Understudy
import UnderstudyJSON

@Suite struct TokenServiceTests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// RFC 4231 test cases 1 and 2.
    @Test func hmacMatchesRFC4231() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        #expect(hex(HMACSHA256.mac(key: key, message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hex(HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// The HS256 signature of RFC 7515's appendix A.1 example (its key is binary, so the MAC is checked directly).
    @Test func verifiesRFC7515Example() throws {
        let keyBytes = try #require(Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"))
        let signingInput = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        #expect(Base64URL.encode(HMACSHA256.mac(key: keyBytes, message: Array(signingInput.utf8)))
            == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }

    @Test func signsAndVerifiesWithClaimsInOrder() throws {
        let service = TokenService(secret: "secret")
        let token = service.sign(claims: [.init(key: "id", value: .number(JSONNumber(1))),
                                          .init(key: "username", value: .string("emilys"))],
                                 issuedAt: 1_000, lifetimeSeconds: 60)
        let claims = try service.verify(token, now: 1_059)
        #expect(claims.keys == ["id", "username", "iat", "exp"])
        #expect(claims["exp"]?.intValue == 1_060)
        #expect(throws: TokenService.Failure.expired) { try service.verify(token, now: 1_060) }
        #expect(throws: TokenService.Failure.badSignature) { try TokenService(secret: "other").verify(token, now: 1_000) }
    }

    @Test(arguments: ["", "abc", "a.b", "Bearer", "bearer a.b.c", "a..c", "a.b.c.d"])
    func malformedTokens(token: String) {
        #expect(throws: TokenService.Failure.malformed) { try TokenService(secret: "s").verify(token, now: 0) }
    }

    @Test func undecodableAndForeignAlgorithms() {
        let service = TokenService(secret: "s")
        #expect(throws: TokenService.Failure.undecodable) { try service.verify("abc.def.ghi", now: 0) }
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + ".x"
        #expect(throws: TokenService.Failure.wrongAlgorithm) { try service.verify(none, now: 0) }
    }
}
