import Testing
import UnderstudyJSON
import UnderstudyTestSupport
@testable import UnderstudyOpenAPI

/// Whatever a client sends, the mock answers and never traps: seeded random requests (paths from the document and
/// beyond it, methods, headers, bodies, `Prefer`) against every operation of real documents, each answered with a
/// status from 100 to 599.
@Suite struct MockRobustnessTests {
    static let fragments = ["1", "-1", "9223372036854775808", "abc", "%00", "%E2%82%AC", "", "..", "{id}", "🙂", "x y"]
    static let bodies = ["", "{}", "[]", "null", "{\"id\": 9223372036854775807, \"name\": \"\"}", "{\"a\":", "\u{0}",
                         "[[[[[[[[[[]]]]]]]]]]", "{\"name\": 1e400}", "text"]
    static let preferences = ["code=500", "code=abc", "example=nope", "dynamic=true, seed=9", "dynamic=maybe", "code=204, dynamic=true"]

    @Test(arguments: ["OAI-learn.openapis.org/examples/v3.0/petstore.yaml", "OAI-learn.openapis.org/examples/v3.0/uspto.yaml",
                      "OAI-learn.openapis.org/examples/v3.1/tictactoe.yaml", "sonallux-spotify-web-api/fixed-spotify-open-api.yml"])
    func randomRequestsAreAllAnswered(_ name: String) throws {
        let engine = MockEngine(document: try RealDocumentTests.load(name))
        var random = SeededRandom(seed: 11)
        for operation in engine.document.operations {
            for _ in 0..<12 {
                var path = operation.path
                while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
                    path.replaceSubrange(open...close, with: random.pick(Self.fragments))
                }
                var headers: [(name: String, value: String)] = [("Content-Type", random.pick(["application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]))]
                if random.chance(0.5) { headers.append(("Prefer", random.pick(Self.preferences))) }
                if random.chance(0.5) { headers.append(("Authorization", "Bearer t")) }
                if random.chance(0.3) { headers.append(("Accept", random.pick(["text/csv", "*/*", "application/xml;q=0", ""]))) }
                let method = random.chance(0.8) ? operation.method : random.pick(["GET", "PUT", "PATCH", "TRACE"])
                let response = engine.respond(to: MockRequest(method: method, path: path, rawQuery: random.chance(0.5) ? "limit=-1&offset=abc&__code=500" : nil,
                                                              headers: headers, body: Array(random.pick(Self.bodies).utf8)),
                                              session: random.chance(0.5) ? "s" : nil, seed: random.next(), now: 1_700_000_000)
                #expect((100...599).contains(response.status), "\(method) \(path)")
            }
        }
    }
}
