import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// A proxy holding an upstream to its document (`--upstream URL --spec FILE`), over real sockets: Understudy's own
/// DummyJSON API held to its own `openapi/openapi.yaml` (no violation), then to copies with mismatches planted
/// (each named, nothing else), `--spec-errors`, operations the upstream lacks, and faults on checked traffic.
@Suite struct ContractProxyTests {
    /// A DummyJSON server, and a proxy in front of it checking against `document` (the project's own by default).
    private func withProxy(_ document: String = ContractPlant.document, configure: (inout OpenAPISpec.Options) -> Void = { _ in },
                           _ body: (UnderstudyServer, UnderstudyServer, HTTPTestClient) async throws -> Void) async throws {
        let upstream = try UnderstudyServer.start()
        defer { upstream.stop() }
        var options = OpenAPISpec.Options()
        configure(&options)
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = try Upstream(url: upstream.baseURL.absoluteString)
        configuration.spec = try OpenAPISpec(text: document, name: "openapi.yaml", options: options)
        let proxy = try UnderstudyServer.start(configuration)
        defer { proxy.stop() }
        try await body(upstream, proxy, HTTPTestClient(server: proxy))
    }

    private func violations(_ reply: HTTPTestClient.Reply) -> [[String: Any]] {
        guard let text = reply.header("X-Understudy-Violations"),
              let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else { return [] }
        return list
    }

    private func report(_ client: HTTPTestClient) async throws -> [String: Any] {
        let reply = try await client.send("/__understudy/violations")
        return try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
    }

    @Test func theAPIKeepsItsOwnDocument() async throws {
        try await withProxy { _, _, client in
            let token = try await client.accessToken()
            let requests: [(String, String, String?, [String: String])] = [
                ("GET", "/products/1", nil, [:]), ("GET", "/products?limit=3&select=title,price", nil, [:]),
                ("GET", "/products/search?q=phone", nil, [:]), ("GET", "/products/categories", nil, [:]),
                ("GET", "/products/99999", nil, [:]), ("GET", "/users/1", nil, [:]), ("GET", "/carts/1", nil, [:]),
                ("GET", "/posts/1/comments", nil, [:]), ("GET", "/todos/random", nil, [:]), ("GET", "/quotes/1", nil, [:]),
                ("GET", "/recipes/1", nil, [:]), ("GET", "/auth/me", nil, ["Authorization": "Bearer \(token)"]),
                ("POST", "/products/add", #"{"title":"Lamp","price":12.5}"#, ["Content-Type": "application/json"]),
                ("PUT", "/products/1", #"{"title":"Renamed"}"#, ["Content-Type": "application/json"]),
                ("DELETE", "/products/1", nil, [:]),
            ]
            for (method, target, body, headers) in requests {
                let reply = try await client.send(method, target, headers: headers, body: body.map { Data($0.utf8) })
                #expect(reply.header("X-Understudy-Violations") == nil, "\(method) \(target): \(reply.header("X-Understudy-Violations") ?? "")")
            }
            let summary = try await report(client)
            #expect(summary["violations"] as? Int == 0)
            #expect((summary["exchanges"] as? Int ?? 0) >= requests.count)
        }
    }

    @Test(arguments: ContractPlant.all) func aPlantedMismatchIsNamedAndNothingElse(_ plant: ContractPlant) async throws {
        let document = try #require(plant.planted, "the plant's edit no longer finds its text in openapi/openapi.yaml")
        try await withProxy(document) { upstream, _, client in
            let reply = try await client.send(plant.request)
            let found = violations(reply).filter { ["anyOf", "oneOf"].contains($0["keyword"] as? String) == false }
            #expect(found.count == 1, "\(found)")
            #expect(found.first?["location"] as? [String] == plant.location)
            #expect(found.first?["pointer"] as? String == plant.pointer)
            #expect(found.first?["keyword"] as? String == plant.keyword)
            // The client gets the upstream's bytes: only the header is added.
            let direct = try await HTTPTestClient(server: upstream).send(plant.request)
            #expect(reply.status == direct.status)
            #expect(reply.body == direct.body)
            let summary = try await report(client)
            #expect(summary["violations"] as? Int == violations(reply).count)
            let recent = try #require(summary["recent"] as? [[String: Any]])
            #expect(recent.count == 1)
            let journal = try await client.send("/__understudy/requests")
            #expect(journal.text.contains("\"violations\":[{\"side\""))
        }
    }

    @Test func specErrorsRefusesWhatBreaksTheDocument() async throws {
        let plants = Dictionary(uniqueKeysWithValues: ContractPlant.all.map { ($0.name, $0) })
        let reply = try #require(plants["a changed type"]?.planted)
        try await withProxy(reply, configure: { $0.failsOnViolations = true }) { upstream, _, client in
            let broken = try await client.send("/products/1")
            #expect(broken.status == 502)
            #expect(broken.header("Content-Type") == "application/problem+json")
            #expect(broken.message?.contains("/price") == true)
            #expect(try await client.send("/products/2").status == 502)
            // A request that breaks it is refused before anything is forwarded.
            let before = upstream.journal.entries(path: "/users").count
            let refused = try await client.send("/users?limit=x")
            #expect(refused.status == 422)
            #expect(refused.message?.contains("limit") == true)
            #expect(upstream.journal.entries(path: "/users").count == before)
            #expect(try await client.send("/users/1").status == 200)
        }
    }

    @Test func operationsTheUpstreamLacksAreAnsweredFromTheDocument() async throws {
        // A documented operation DummyJSON does not have, and one the proxy never forwards.
        let document = ContractPlant.document.replacingOccurrences(of: "\n  /auth/me:\n", with: """

              /products/{id}/warranty:
                get:
                  operationId: productWarranty
                  parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                  responses:
                    '200':
                      description: The warranty.
                      content:
                        application/json:
                          example: {years: 2, provider: Understudy Care}
              /auth/me:

            """)
        try await withProxy(document, configure: { $0.mockedPaths = ["/quotes/random*"] }) { upstream, _, client in
            let warranty = try await client.send("/products/1/warranty")
            #expect(warranty.status == 200)
            #expect(warranty.header("X-Understudy-Mocked") == "openapi")
            #expect(warranty.text == #"{"years":2,"provider":"Understudy Care"}"#)
            // A 404 the operation documents is the upstream's, not a missing operation.
            #expect(try await client.send("/products/99999").header("X-Understudy-Mocked") == nil)
            let mocked = try await client.send("/quotes/random")
            #expect(mocked.header("X-Understudy-Mocked") == "openapi")
            #expect(upstream.journal.entries(path: "/quotes/random").isEmpty)
            #expect(try await report(client)["mocked"] as? Int == 2)
        }
    }

    @Test func faultsActOnCheckedTrafficAndTheCheckSeesTheUpstreamsBytes() async throws {
        try await withProxy { _, _, client in
            let whole = try await client.send("/products/1")
            let slow = try await client.send("/products/1", headers: ["X-Understudy-Fault": "delay=200ms"])
            #expect(slow.body == whole.body)
            #expect(slow.header("X-Understudy-Violations") == nil)
            await #expect(throws: (any Error).self) {
                _ = try await client.send("/products/1", headers: ["X-Understudy-Fault": "truncate=10"])
            }
            let malformed = try await client.send("/products/1", headers: ["X-Understudy-Fault": "malformed"])
            #expect(malformed.body != whole.body)
            // The faulted replies were the proxy's doing: the upstream's replies kept the document.
            #expect(try await report(client)["violations"] as? Int == 0)
        }
    }

    /// A 3.1 document that still writes 3.0's `nullable` (OpenAI's has 111): an upstream's null breaks it as
    /// written, and keeps it when the proxy is told to tolerate 3.0's keywords (`--spec-tolerate 3.0-keywords`).
    @Test(arguments: [false, true]) func aThreeOneDocumentsNullableIsReadAsToldTo(tolerates: Bool) async throws {
        let document = """
            openapi: 3.1.0
            info: {title: Nullable, version: '1'}
            paths:
              /products/add:
                post:
                  requestBody:
                    content:
                      application/json:
                        schema: {type: object}
                  responses:
                    '201':
                      description: added
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [id, title, price]
                            properties:
                              id: {type: integer}
                              title: {type: string}
                              price: {type: number, nullable: true}
            """
        try await withProxy(document, configure: { $0.tolerates30Keywords = tolerates }) { _, _, client in
            let reply = try await client.send("POST", "/products/add", headers: ["Content-Type": "application/json"],
                                              body: Data(#"{"title":"Lamp","price":null}"#.utf8))
            #expect(reply.status == 201)
            #expect(String(decoding: reply.body, as: UTF8.self).contains(#""price":null"#))
            let found = violations(reply)
            if tolerates {
                #expect(found.isEmpty, "\(found)")
            } else {
                #expect(found.count == 1, "\(found)")
                #expect(found.first?["pointer"] as? String == "/price")
                #expect(found.first?["keyword"] as? String == "type")
            }
        }
    }

    /// The report keeps the start of the body that broke the document, for the control room's Contract panel.
    @Test func theReportKeepsTheOffendingBytes() async throws {
        let plant = try #require(ContractPlant.all.first { $0.name == "a changed type" }?.planted)
        try await withProxy(plant) { _, _, client in
            _ = try await client.send("/products/1")
            let summary = try await report(client)
            #expect(summary["replyViolations"] as? Int == summary["violations"] as? Int)
            let recent = try #require(summary["recent"] as? [[String: Any]])
            let body = try #require(recent.last?["body"] as? String)
            #expect(body.hasPrefix(#"{"id":1,"#) && body.contains(#""price":"#))
        }
    }

    @Test func aServerWithoutAnUpstreamHasNoReport() async throws {
        let server = try UnderstudyServer.start()
        defer { server.stop() }
        let reply = try await HTTPTestClient(server: server).send("/__understudy/violations")
        #expect(reply.status == 409)
        #expect(reply.message?.contains("--upstream") == true)
    }
}
