import Foundation
import Testing
@testable import UnderstudyClient
import UnderstudyTestSupport

@Suite(.blocksThreads) struct PinnedKeysTests {
    @Test func pinsAreTheBase64OfADigest() throws {
        let pin = Data(repeating: 7, count: 32).base64EncodedString()
        #expect(try PinnedKeys([pin, pin]).digests == [pin])
        #expect(throws: PinnedKeys.InvalidPin(pin: "abc")) { try PinnedKeys([pin, "abc"]) }
        let short = Data(repeating: 7, count: 20).base64EncodedString()
        #expect(throws: PinnedKeys.InvalidPin(pin: short)) { try PinnedKeys([short]) }
        #expect(throws: PinnedKeys.InvalidPin.self) { try PinnedKeys([]) }
        #expect(PinnedKeys.InvalidPin(pin: "abc").description.contains("'abc' is not a pin"))
    }

    @Test func pinningIsEnforcedOnlyWhereTheSecurityFrameworkIs() {
        #if canImport(Security)
        #expect(PinnedKeys.isEnforced)
        #else
        #expect(!PinnedKeys.isEnforced)
        #endif
    }

    /// The hex of a shell pipeline's binary output.
    private func hex(_ pipeline: String) throws -> String {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", pipeline + " | od -An -tx1 -v | tr -d ' \\n'"])
        #expect(child.waitForExit() == 0)
        return child.output
    }

    private func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }

    /// The raw keys Apple's `SecKeyCopyExternalRepresentation` exports (the EC point, PKCS #1 for RSA) rebuild the
    /// DER SubjectPublicKeyInfo OpenSSL writes for the same key, which is what a pin digests.
    @Test(arguments: [("P-256", 65), ("P-384", 97)])
    func ecKeysRebuildOpenSSLsSubjectPublicKeyInfo(curve: String, pointLength: Int) throws {
        let info = bytes(try hex("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:\(curve) 2>/dev/null | openssl pkey -pubout -outform DER"))
        try #require(info.count > pointLength)
        let algorithm: SubjectPublicKeyInfo.Algorithm = curve == "P-256" ? .p256 : .p384
        #expect(SubjectPublicKeyInfo.der(algorithm, key: info.suffix(pointLength)) == info)
    }

    @Test func rsaKeysRebuildOpenSSLsSubjectPublicKeyInfo() throws {
        let key = FileManager.default.temporaryDirectory.appendingPathComponent("pin-rsa-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: key) }
        _ = try hex("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out \(key) 2>/dev/null")
        let info = bytes(try hex("openssl pkey -in \(key) -pubout -outform DER"))
        let pkcs1 = bytes(try hex("openssl rsa -in \(key) -RSAPublicKey_out -outform DER 2>/dev/null"))
        try #require(pkcs1.count > 256)
        #expect(SubjectPublicKeyInfo.der(.rsa, key: pkcs1) == info)
    }
}
