import Foundation
import Testing
import Understudy
import UnderstudyJSON
import UnderstudyOpenAPI
import UnderstudyTestSupport

/// JSON-Schema-Test-Suite through the server's own validation: each case's schema is the JSON body of a
/// one-operation document's `POST /validate`, served over a socket, and each test's data is posted; a valid one is
/// answered 200, an invalid one 422. Draft 2020-12's required cases in a 3.1 document; draft 4's cases that keep to
/// OpenAPI 3.0's keywords in a 3.0 document.
@Suite(.serialized) struct SpecSchemaSuiteTests {
    /// Posts every test of every case; the failures, named.
    static func run(_ cases: [JSONSchemaSuite.Case], version: String) async throws -> (passed: Int, failed: [String]) {
        var passed = 0
        var failed: [String] = []
        for (number, item) in cases.enumerated() {
            var schema = item.schema
            // The suite's schemas are roots of their own: one without an `$id` gets one, so that `#/$defs/…` means
            // the schema and not the document around it.
            if version.hasPrefix("3.1"), case .object(var object) = schema, object["$id"] == nil {
                object.entries.insert(JSONObject.Entry(key: "$id", value: .string("https://understudy.invalid/case-\(number).json")), at: 0)
                schema = .object(object)
            }
            let document = JSONValue.object(JSONObject([
                .init(key: "openapi", value: .string(version)),
                .init(key: "info", value: .object(JSONObject([.init(key: "title", value: .string(item.file)),
                                                              .init(key: "version", value: .string("1"))]))),
                .init(key: "paths", value: .object(JSONObject([.init(key: "/validate", value: .object(JSONObject([
                    .init(key: "post", value: .object(JSONObject([
                        .init(key: "requestBody", value: .object(JSONObject([
                            .init(key: "required", value: .bool(true)),
                            .init(key: "content", value: .object(JSONObject([.init(key: "application/json", value: .object(JSONObject([
                                .init(key: "schema", value: schema)])))]))),
                        ]))),
                        .init(key: "responses", value: .object(JSONObject([.init(key: "200", value: .object(JSONObject([
                            .init(key: "description", value: .string("valid"))])))]))),
                    ]))),
                ])))]))),
            ]))
            let loaded: OpenAPIDocument
            do {
                loaded = try DocumentLoader(readers: DocumentReaders(), remote: { JSONSchemaSuite.remote($0) }).load(document)
            } catch {
                failed += item.tests.map { "\(item.file): \(item.description): \($0.description) (the document did not load: \(error))" }
                continue
            }
            var configuration = UnderstudyServer.Configuration()
            configuration.spec = OpenAPISpec(document: loaded, name: item.file)
            let server = try UnderstudyServer.start(configuration)
            defer { server.stop() }
            let client = HTTPTestClient(server: server)
            for test in item.tests {
                let reply = try await client.send("POST", "/validate", headers: ["Content-Type": "application/json"],
                                                  body: Data(JSONWriter.encode(test.data)))
                if reply.status == (test.valid ? 200 : 422) {
                    passed += 1
                } else {
                    failed.append("\(item.file): \(item.description): \(test.description) (answered \(reply.status))")
                }
            }
        }
        return (passed, failed)
    }

    @Test func draft2020RequiredCasesThroughTheServer() async throws {
        let (passed, failed) = try await Self.run(try JSONSchemaSuite.cases("draft2020-12"), version: "3.1.0")
        print("draft2020-12 through the server: \(passed) of \(passed + failed.count) (\(String(format: "%.2f", Double(passed) * 100 / Double(passed + failed.count))) %)")
        for failure in failed { print("  FAIL \(failure)") }
        #expect(passed + failed.count == 1_299)
        // The four left are two cases that `$ref` the 2020-12 meta-schema itself, which is not built in: their
        // documents do not load (an unresolved $ref), so both tests of each fail. 99.69 %.
        #expect(failed.count == 4, "\(failed)")
        #expect(failed.allSatisfy { $0.contains("unresolved $ref 'https://json-schema.org/draft/2020-12/schema'") })
    }

    @Test func draft4CasesInOpenAPI30sSubsetThroughTheServer() async throws {
        let subset = try JSONSchemaSuite.cases("draft4").filter {
            JSONSchemaSuite.keywords(of: $0.schema).isSubset(of: JSONSchemaSuite.openAPI30Keywords)
        }
        let (passed, failed) = try await Self.run(subset, version: "3.0.3")
        print("draft4 within OpenAPI 3.0's keywords through the server: \(passed) of \(passed + failed.count)")
        for failure in failed { print("  FAIL \(failure)") }
        #expect(failed.isEmpty)
    }
}
