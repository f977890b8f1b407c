import Testing
@testable import Understudy

/// Which handshake each TLS fault takes: queued ones the oldest first, each for its count, before any set for an
/// SNI name; and which faults a server's certificate lets it present as stated.
@Suite struct TLSFaultQueueTests {
    @Test func faultsTakeTheNextHandshakesInTheOrderQueued() {
        let queue = TLSFaultQueue()
        #expect(queue.next() == nil)
        queue.add(.expired, times: 2)
        queue.add(.reset, times: 1)
        #expect(queue.queued == [.init(fault: .expired, remaining: 2), .init(fault: .reset, remaining: 1)])
        #expect([queue.next(), queue.next(), queue.next(), queue.next()] == [.expired, .expired, .reset, nil])
        queue.add(.wrongKey, times: 5)
        #expect(queue.removeAll() == 1)
        #expect(queue.next() == nil)
    }

    @Test func aNameKeepsItsFaultUntilClearedAndComesBeforeTheFixedNames() {
        let queue = TLSFaultQueue()
        queue.add(Fault.TLS(.selfSigned, serverName: "LocalHost"))
        queue.add(Fault.TLS(.reset, serverName: "expired.localhost"))
        queue.add(Fault.TLS(.expired, serverName: "localhost"))   // replaces the first
        #expect(queue.byServerName == [Fault.TLS(.reset, serverName: "expired.localhost"), Fault.TLS(.expired, serverName: "localhost")])
        #expect([queue.fault(forServerName: "localhost"), queue.fault(forServerName: "LOCALHOST")] == [.expired, .expired])
        #expect(queue.fault(forServerName: "expired.localhost") == .reset)
        #expect(queue.fault(forServerName: "self-signed.localhost") == .selfSigned)
        #expect(queue.fault(forServerName: "other.localhost") == nil)
        #expect(queue.next() == nil)   // a name's fault is never queued
        #expect(queue.presented.recent.map(\.serverName) == ["localhost", "LOCALHOST", "expired.localhost", "self-signed.localhost"])
        #expect(queue.removeAll() == 2)
        #expect(queue.fault(forServerName: "localhost") == nil)
        #expect(queue.presented.count == 4)
    }

    @Test func aNameMustBeOnTheCertificateUnlessTheFaultPresentsNone() throws {
        let names = try SubjectName.forLeaf(hosts: ["api.test", "*.apps.test"])
        func problem(_ fault: Fault.TLS) -> String? { TLSFaultQueue.problem(with: fault, certificateNames: names)?.field }
        #expect(problem(Fault.TLS(.expired, serverName: "localhost")) == nil)
        #expect(problem(Fault.TLS(.expired, serverName: "API.test")) == nil)
        #expect(problem(Fault.TLS(.unknownIssuer, serverName: "shop.apps.test")) == nil)
        #expect(problem(Fault.TLS(.selfSigned, serverName: "a.shop.apps.test")) == "serverName")
        #expect(problem(Fault.TLS(.wrongKey, serverName: "other.localhost")) == "serverName")
        #expect(problem(Fault.TLS(.wrongHost, serverName: "other.localhost")) == nil)
        #expect(problem(Fault.TLS(.reset, serverName: "other.localhost")) == nil)
        #expect(problem(Fault.TLS(.reset, serverName: "127.0.0.1")) == "serverName")
        #expect(problem(Fault.TLS(.reset, serverName: "*.apps.test")) == "serverName")
        #expect(problem(Fault.TLS(.reset, times: 0)) == "times")
        #expect(problem(Fault.TLS(.reset, times: 10_001)) == "times")
        let reason = TLSFaultQueue.problem(with: Fault.TLS(.expired, serverName: "other.localhost"), certificateNames: names)?.reason
        #expect(reason == "the certificate is for localhost, api.test, *.apps.test, not 'other.localhost': a client would "
                + "report a hostname mismatch rather than expired (add the name with --allow-host, or use wrong-host or reset)")
        // Read before any server exists (a scenario file), only the value's own form is checked.
        #expect(TLSFaultQueue.problem(with: Fault.TLS(.expired, serverName: "other.localhost"), certificateNames: nil) == nil)
    }
}
