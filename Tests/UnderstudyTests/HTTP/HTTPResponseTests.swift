import Testing
@testable import Understudy

@Suite struct WeakETagTests {
    @Test func hasExpressShapeAndIsStable() {
        let body = Array(#"{"id":1,"title":"Essence Mascara Lash Princess"}"#.utf8)
        let tag = HTTPResponse.weakETag(for: SharedBytes(body))
        #expect(tag.hasPrefix("W/\"\(String(body.count, radix: 16))-"))
        #expect(tag.hasSuffix("\""))
        #expect(HTTPResponse.weakETag(for: SharedBytes(body)) == tag)
    }

    /// Every single-bit change, and pairs of changes in the same bit of different words (which a plain
    /// word-wise FNV would cancel), give a different hash.
    @Test func everyBitChangesTheHash() {
        let base = (0..<37).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }
        let original = base.withUnsafeBytes(HTTPResponse.contentHash)
        var seen: Set<UInt64> = [original]
        for index in base.indices {
            for bit in 0..<8 {
                var changed = base
                changed[index] ^= 1 << bit
                #expect(seen.insert(changed.withUnsafeBytes(HTTPResponse.contentHash)).inserted, "byte \(index) bit \(bit)")
            }
        }
        var pair = base
        pair[7] ^= 0x80
        pair[15] ^= 0x80
        #expect(pair.withUnsafeBytes(HTTPResponse.contentHash) != original)
    }

    @Test func lengthMattersForZeroBytes() {
        let hashes = (0..<20).map { [UInt8](repeating: 0, count: $0).withUnsafeBytes(HTTPResponse.contentHash) }
        #expect(Set(hashes).count == hashes.count)
    }
}
