import Testing
@testable import Understudy

/// Each reply middleware on its own, on plans built by hand.
@Suite struct MiddlewareTests {
    private func plan(_ method: String = "GET", _ target: String = "/products/1", headers: HTTPHeaders = [:],
                      response: HTTPResponse = .json(Array(#"{"id":1}"#.utf8))) -> ReplyDraft {
        let request = HTTPRequest(method: method, target: target, headers: headers, arrivedAt: 1_000)
        return ReplyDraft(request: request, response: response)
    }

    @Test func faultAppliedReportsWhatTookEffect() {
        var faulted = plan()
        faulted.applied = "status=503"
        FaultAppliedMiddleware().prepare(&faulted)
        #expect(faulted.response.headers[FaultHeaders.applied] == "status=503")
        var clean = plan()
        FaultAppliedMiddleware().prepare(&clean)
        #expect(clean.response.headers[FaultHeaders.applied] == nil)
    }

    @Test func rateLimitHeadersCountEveryReplyAndKeepAFaultsOwn() {
        var middleware = RateLimitHeadersMiddleware()
        var first = plan()
        middleware.prepare(&first)
        var second = plan()
        middleware.prepare(&second)
        #expect(first.response.headers["X-RateLimit-Limit"] == "100")
        #expect(first.response.headers["X-RateLimit-Remaining"] == "99")
        #expect(second.response.headers["X-RateLimit-Remaining"] == "98")
        #expect(second.response.headers["X-RateLimit-Reset"] == "1010")
        var own = plan(response: HTTPResponse(status: 429, headers: ["X-RateLimit-Limit": "2"]))
        middleware.prepare(&own)
        #expect(own.response.headers.filter { $0.name == "X-RateLimit-Limit" }.count == 1)
        #expect(own.response.headers["X-RateLimit-Remaining"] == nil)
    }

    @Test func aCannedReplyGetsOnlyItsRateLimitCountersFromTheChain() {
        let journal = Journal(capacity: 10)
        let feed = LiveFeed(faults: FaultController(seed: 1, journal: journal), journal: journal)
        let chain = MiddlewareChain(journal: journal, feed: feed, recorder: Recorder(writer: nil), requestLog: nil)
        var canned = plan()
        canned.canned = CannedReply(body: SharedBytes(Array("{}".utf8)), etag: "W/\"2-x\"")
        canned.applied = "status=503"
        chain.prepare(&canned)
        #expect(canned.rateLimit.remaining == 99)
        #expect(canned.rateLimit.resetsAt == 1_010)
        #expect(canned.response.headers.fields.map(\.name) == ["Content-Type"])
        var routed = plan()
        chain.prepare(&routed)
        #expect(routed.response.headers["X-RateLimit-Remaining"] == "98")
        #expect(routed.response.headers["ETag"] != nil)
    }

    @Test func corsAnswersAnyOriginAndItsPreflight() {
        var simple = plan(headers: ["Origin": "http://localhost:5173"])
        CORSMiddleware().prepare(&simple)
        #expect(simple.response.headers["Access-Control-Allow-Origin"] == "http://localhost:5173")
        #expect(simple.response.headers["Access-Control-Allow-Credentials"] == "true")
        #expect(simple.response.headers["Vary"] == "Origin")
        #expect(simple.response.headers["Access-Control-Allow-Methods"] == nil)
        var preflight = plan("OPTIONS", headers: ["Origin": "http://a.test", "Access-Control-Request-Headers": "x-understudy-fault"],
                             response: HTTPResponse(status: 204))
        CORSMiddleware().prepare(&preflight)
        #expect(preflight.response.headers["Access-Control-Allow-Methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE")
        #expect(preflight.response.headers["Access-Control-Allow-Headers"] == "x-understudy-fault")
        var none = plan()
        CORSMiddleware().prepare(&none)
        #expect(none.response.headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test func conditionalGETTagsA200AndAnswersAMatchWith304() {
        var tagged = plan()
        ConditionalGETMiddleware().prepare(&tagged)
        let etag = try! #require(tagged.response.headers["ETag"])
        #expect(etag.hasPrefix("W/\""))
        var matched = plan(headers: ["If-None-Match": "\"other\", \(etag)"])
        ConditionalGETMiddleware().prepare(&matched)
        #expect(matched.response.status == 304)
        #expect(matched.response.body.count == 0)
        #expect(matched.response.headers["Content-Type"] == nil)
        var posted = plan("POST", headers: ["If-None-Match": etag])
        ConditionalGETMiddleware().prepare(&posted)
        #expect(posted.response.status == 200)
    }

    @Test func aFaultedReplyIsNeverTagged() {
        var faulted = plan(response: {
            var response = HTTPResponse.json(Array("{}".utf8))
            response.headers.add(FaultHeaders.applied, "malformed=shape")
            return response
        }())
        ConditionalGETMiddleware().prepare(&faulted)
        #expect(faulted.response.headers["ETag"] == nil)
        var error = plan(response: .message("nope", status: 404))
        ConditionalGETMiddleware().prepare(&error)
        #expect(error.response.headers["ETag"] == nil)
    }

    @Test func theJournalKeepsEveryReplyButTheAdminAPIs() {
        let journal = Journal(capacity: 10)
        let middleware = JournalMiddleware(journal: journal)
        var served = plan("GET", "/products?limit=2", headers: ["Accept": "*/*"])
        served.session = "s1"
        served.applied = "delay=5ms"
        middleware.completed(ReplyPlan(served), ReplyOutcome(status: 200, bytesWritten: 7, firstByteAt: 5, finishedAt: 9))
        var admin = plan("GET", "/__understudy/health")
        admin.isAdmin = true
        middleware.completed(ReplyPlan(admin), ReplyOutcome(status: 200, bytesWritten: 2, firstByteAt: 1, finishedAt: 1))
        let entries = journal.entries()
        #expect(entries.count == 1)
        let entry = try! #require(entries.first)
        #expect(entry.path == "/products" && entry.query == "limit=2" && entry.session == "s1")
        #expect(entry.fault == "delay=5ms" && entry.status == 200 && entry.bytesWritten == 7)
        #expect(entry.headers["accept"] == "*/*")
        #expect(entry.firstByteMilliseconds == 5 && entry.durationMilliseconds == 9)
    }
}
