import Testing
@testable import Understudy

/// When the local CA and leaf are reused, renewed or made again, decided from what was found on disk.
@Suite struct CertificateRenewalTests {
    let day = 86_400.0
    let now = 1_000_000_000.0
    let names: Set<String> = ["localhost", "127.0.0.1", "::1"]

    func found(ca: Double?, leaf: Double?, names leafNames: Set<String>? = nil) -> CertificateRenewal.Found {
        CertificateRenewal.Found(caNotAfter: ca.map { now + $0 * day }, leafNotAfter: leaf.map { now + $0 * day },
                                 leafNames: leafNames ?? names)
    }

    func decide(_ found: CertificateRenewal.Found) -> CertificateRenewal.Action {
        CertificateRenewal.decide(found, wanted: names, now: now)
    }

    @Test func currentFilesAreReused() {
        #expect(decide(found(ca: 3_000, leaf: 300)) == .reuse)
        #expect(decide(found(ca: 31, leaf: 31)) == .reuse)
    }

    @Test func aMissingOrEndingCAMakesEverythingAgain() {
        #expect(decide(found(ca: nil, leaf: 300)) == .issueAll(reason: "no usable local CA"))
        #expect(decide(found(ca: 29, leaf: 300)) == .issueAll(reason: "the local CA ends within 30 days"))
        #expect(decide(found(ca: -1, leaf: nil)) == .issueAll(reason: "the local CA ends within 30 days"))
    }

    @Test func aMissingOrEndingLeafIsRenewedUnderTheSameCA() {
        #expect(decide(found(ca: 3_000, leaf: nil)) == .issueLeaf(reason: "no usable certificate for the CA"))
        #expect(decide(found(ca: 3_000, leaf: 29.9)) == .issueLeaf(reason: "the certificate ends within 30 days"))
    }

    @Test func changedNamesRenewTheLeaf() {
        let more = decide(found(ca: 3_000, leaf: 300, names: names.union(["dev.example"])))
        #expect(more == .issueLeaf(reason: "the host names changed (now 127.0.0.1, ::1, localhost)"))
        #expect(decide(found(ca: 3_000, leaf: 300, names: ["localhost"])) != .reuse)
    }
}
