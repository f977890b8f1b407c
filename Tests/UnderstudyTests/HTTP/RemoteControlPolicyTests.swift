import Testing
@testable import Understudy

@Suite struct RemoteControlPolicyTests {
    private let faultRequest = HTTPRequest(method: "GET", target: "/products/1", headers: ["X-Understudy-Fault": "status=503"])

    @Test func loopbackWithoutATokenIsOpen() {
        for host in ["127.0.0.1", "127.0.0.2", "localhost", "::1"] {
            #expect(RemoteControlPolicy(host: host, token: nil).refusal(for: faultRequest, admin: false) == nil)
        }
    }

    @Test func otherAddressesWithoutATokenAreClosed() {
        let refusal = RemoteControlPolicy(host: "0.0.0.0", token: nil).refusal(for: faultRequest, admin: true)
        #expect(refusal?.status == 403)
        #expect(refusal?.message.contains("--admin-token") == true)
    }

    @Test func aTokenMustBePresented() {
        let policy = RemoteControlPolicy(host: "0.0.0.0", token: "s3cret")
        #expect(policy.refusal(for: faultRequest, admin: false)?.status == 401)
        let withToken = HTTPRequest(method: "GET", target: "/products/1",
                                    headers: ["X-Understudy-Fault": "status=503", "X-Understudy-Token": "s3cret"])
        #expect(policy.refusal(for: withToken, admin: false) == nil)
        let wrong = HTTPRequest(method: "GET", target: "/products/1",
                                headers: ["X-Understudy-Fault": "status=503", "X-Understudy-Token": "s3cres"])
        #expect(policy.refusal(for: wrong, admin: false)?.status == 401)
        let bearer = HTTPRequest(method: "GET", target: "/__understudy/health", headers: ["Authorization": "Bearer s3cret"])
        #expect(policy.refusal(for: bearer, admin: true) == nil)
        // A fault header rides on the app's own requests, whose Authorization is the user's token, not ours.
        #expect(policy.refusal(for: bearer, admin: false)?.status == 401)
    }
}
