import Testing
import UnderstudyRecording
@testable import Understudy

/// The replay responder alone: hits, misses (answered, or forwarded with an upstream), the misses counted, and an
/// answer canned after its first plain GET.
@Suite struct ReplayResponderTests {
    private static let recording = Recording(entries: [
        Recording.Entry(request: RecordedExchange.Request(method: "GET", path: "/pets/1"),
                        responses: [RecordedExchange.Response(status: 200, headers: [.init("Content-Type", "application/json")],
                                                              body: Array(#"{"id":1}"#.utf8))],
                        file: "GET-pets-1.json"),
        Recording.Entry(request: RecordedExchange.Request(method: "GET", path: "/pets"),
                        responses: [RecordedExchange.Response(status: 200, body: Array("[1]".utf8)),
                                    RecordedExchange.Response(status: 200, body: Array("[1,2]".utf8))],
                        file: "GET-pets.json"),
    ])

    private let recorder = Recorder(writer: nil)
    private var rules = false

    private func responder(upstream: Bool = false, rules: Bool = false) -> ReplayResponder {
        let fallback = upstream ? UpstreamResponder(upstream: try! Upstream(url: "http://127.0.0.1:9"), recorder: recorder,
                                                    sockets: WebSocketHub(clock: { 0 }), monotonicMilliseconds: { 0 }) : nil
        return ReplayResponder(routes: ReplayRoutes(ReplayResponderTests.recording), fallback: fallback, recorder: recorder,
                               sockets: WebSocketHub(clock: { 0 }),
                               rulesInstalled: { rules })
    }

    private func respond(_ responder: ReplayResponder, _ target: String, headers: HTTPHeaders = [:]) -> Answer {
        let request = HTTPRequest(method: "GET", target: target, headers: headers)
        return responder.respond(to: request, as: responder.kind(of: request), fault: nil, seed: 1)
    }

    @Test func aHitIsTheRecordedAnswerInOrder() {
        let replay = responder()
        guard case .reply(let first, _, _) = respond(replay, "/pets"), case .reply(let second, _, _) = respond(replay, "/pets") else {
            Issue.record("not answered")
            return
        }
        #expect(first.body.bytesCopy == Array("[1]".utf8))
        #expect(second.body.bytesCopy == Array("[1,2]".utf8))
    }

    @Test func aMissIsA502NamingItWithoutAnUpstreamAndCounted() {
        let replay = responder()
        #expect(replay.kind(of: HTTPRequest(method: "GET", target: "/x")) == .body)
        guard case .reply(let response, _, _) = respond(replay, "/owners") else {
            Issue.record("a miss was forwarded with no upstream")
            return
        }
        #expect(response.status == ReplayMiss.status)
        #expect(response.headers[ReplayMiss.header.name] == ReplayMiss.header.value)
        #expect(recorder.current.misses == 1)
    }

    @Test func aMissIsForwardedWithAnUpstream() {
        let replay = responder(upstream: true)
        #expect(replay.kind(of: HTTPRequest(method: "GET", target: "/x")) == .forwarded)
        guard case .forward = respond(replay, "/owners") else {
            Issue.record("a miss was not forwarded")
            return
        }
        #expect(recorder.current.recentMisses == ["GET /owners"])
    }

    @Test func theOnlyAnswerOfAPlainGETIsCannedAfterItsFirstHit() {
        let replay = responder()
        let request = HTTPRequest(method: "GET", target: "/pets/1")
        #expect(replay.cannedReply(for: request) == nil)
        _ = respond(replay, "/pets/1", headers: ["Origin": "http://a"])
        #expect(replay.cannedReply(for: request) == nil)
        _ = respond(replay, "/pets/1")
        #expect(replay.cannedReply(for: request)?.reply.status == 200)
        // A target with several answers is never canned: each request gets the next.
        _ = respond(replay, "/pets")
        #expect(replay.cannedReply(for: HTTPRequest(method: "GET", target: "/pets")) == nil)
        #expect(!replay.cansFaultReplies)
    }

    @Test func nothingIsCannedWhileARuleIsInstalled() {
        let replay = responder(rules: true)
        _ = respond(replay, "/pets/1")
        #expect(replay.cannedReply(for: HTTPRequest(method: "GET", target: "/pets/1")) == nil)
    }
}
