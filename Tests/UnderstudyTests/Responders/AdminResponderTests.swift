import Foundation
import Testing
import UnderstudyJSON
@testable import Understudy

/// The admin API's responder: its route table answers 405 with `Allow` from its own rows, as the public side does,
/// matches words exactly, and serves HEAD wherever GET is; the gate and the token come first.
@Suite struct AdminResponderTests {
    private let pipeline = Pipeline.testing(StubResponder())

    private func plan(_ method: String, _ path: String, headers: HTTPHeaders = [:]) -> ReplyPlan {
        pipeline.replyPlan(for: HTTPRequest(method: method, target: "/__understudy" + path, headers: headers))
    }

    private func message(_ plan: ReplyPlan) -> String? {
        guard let value = try? JSONParser.parse(plan.response.body.bytesCopy), case .object(let object) = value else { return nil }
        return object["message"]?.stringValue
    }

    @Test func everyRowsPathAnswersOtherMethodsWithA405NamingTheRows() {
        let byPath = Dictionary(grouping: AdminRoutes.table, by: \.pattern.template)
        #expect(byPath.count == 20)
        for (path, rows) in byPath {
            let methods = rows.map(\.method)
            var allow = RouteMethods.all.filter(methods.contains)
            if allow.contains("GET") { allow.append("HEAD") }
            let concrete = path.replacingOccurrences(of: "{id}", with: "x")
            let refused = plan("PATCH", concrete)
            #expect(refused.response.status == 405, "PATCH \(path)")
            #expect(refused.response.headers["Allow"] == allow.joined(separator: ", "), "PATCH \(path)")
        }
    }

    @Test func theTablesMethodsAreTheAdminAPIs() {
        let rows = Set(AdminRoutes.table.map { "\($0.method) \($0.pattern.template)" })
        #expect(rows == [
            "GET /health", "GET /recording", "POST /recording", "DELETE /recording", "POST /recording/snapshot",
            "GET /faults", "POST /faults", "DELETE /faults", "GET /faults/{id}", "DELETE /faults/{id}",
            "GET /requests", "DELETE /requests", "GET /sessions", "POST /sessions", "DELETE /sessions/{id}",
            "POST /reset", "POST /offline", "GET /scenarios", "POST /scenarios", "GET /seed", "PUT /seed",
            "GET /tls-faults", "POST /tls-faults", "DELETE /tls-faults",
            "GET /spec", "PUT /spec/operations/{id}", "DELETE /spec/operations/{id}", "DELETE /spec/state",
            "GET /violations", "DELETE /violations",
            "GET /sockets", "POST /sockets/send", "POST /sockets/{id}/close",
        ])
    }

    @Test func aHEADIsAnsweredAsGETAndItsRefusalNamesHEAD() {
        #expect(plan("HEAD", "/faults").response.status == 200)
        let refused = plan("HEAD", "/reset")
        #expect(refused.response.status == 405)
        #expect(message(refused)?.hasPrefix("Method HEAD is not allowed on /__understudy/reset") == true)
    }

    @Test func wordsMatchExactlyAndAnUnknownRouteIsA404() {
        #expect(plan("GET", "/FAULTS").response.status == 404)
        #expect(plan("GET", "/faults/").response.status == 200)
        let unknown = plan("GET", "/nope")
        #expect(unknown.response.status == 404)
        #expect(message(unknown)?.hasPrefix("Admin route GET /__understudy/nope not found") == true)
        #expect(plan("GET", "/faults/a/b").response.status == 404)
    }

    @Test func anIdIsOneDecodedWord() {
        let missing = plan("DELETE", "/faults/a%20b")
        #expect(missing.response.status == 404)
        #expect(message(missing) == "No fault rule with id 'a b'")
    }

    @Test func beforeTheTransportIsAttachedTheAPIIsNotReady() {
        let unattached = Pipeline.testing(StubResponder(), attached: false)
        #expect(unattached.replyPlan(for: HTTPRequest(method: "GET", target: "/__understudy/health")).response.status == 503)
    }

    @Test func aForeignHostIsRefused() {
        #expect(plan("GET", "/health", headers: ["Host": "evil.example"]).response.status == 403)
        #expect(plan("GET", "/health", headers: ["Host": "127.0.0.1:8080"]).response.status == 200)
    }
}
