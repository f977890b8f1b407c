import Foundation
import Testing
import UnderstudyJSON
import UnderstudyTestSupport
@testable import UnderstudyOpenAPI
import UnderstudyYAML

/// The public documents of shared/conformance/openapi load to serve, with every reference resolved and every
/// schema compiled: the OAI examples (3.0, 3.1, 3.2), OpenAI's 3 MB 3.1 document, Asana's, Spotify's and
/// DigitalOcean's 2,907-file spec.
@Suite struct RealDocumentTests {
    static let documents = [
        "OAI-learn.openapis.org/examples/v3.0/petstore.yaml", "OAI-learn.openapis.org/examples/v3.0/petstore-expanded.yaml",
        "OAI-learn.openapis.org/examples/v3.0/api-with-examples.yaml", "OAI-learn.openapis.org/examples/v3.0/callback-example.yaml",
        "OAI-learn.openapis.org/examples/v3.0/link-example.yaml", "OAI-learn.openapis.org/examples/v3.0/uspto.yaml",
        "OAI-learn.openapis.org/examples/v3.1/webhook-example.yaml", "OAI-learn.openapis.org/examples/v3.1/non-oauth-scopes.yaml",
        "OAI-learn.openapis.org/examples/v3.1/tictactoe.yaml", "OAI-learn.openapis.org/examples/v3.2/3.2-tags-example.yaml",
        "openai-openai-openapi/openapi.yaml", "openai-openai-openapi/openapi.json", "Asana-openapi/defs/asana_oas.yaml",
        "sonallux-spotify-web-api/fixed-spotify-open-api.yml", "digitalocean-openapi/specification/DigitalOcean-public.v2.yaml",
    ]

    static func load(_ name: String) throws -> OpenAPIDocument {
        try DocumentLoader(readers: .jsonAndYAML).load(path: SharedData.conformance("openapi/" + name).path)
    }

    @Test(arguments: documents) func loads(_ name: String) throws {
        let started = Date()
        let document: OpenAPIDocument
        do {
            document = try Self.load(name)
        } catch {
            Issue.record("\(name):\n\(String(describing: error).split(separator: "\n").prefix(10).joined(separator: "\n"))")
            return
        }
        let warnings = document.findings.filter { $0.severity == .warning }
        print("\(name): OpenAPI \(document.version), \(document.operations.count) operations, \(document.graph.nodes.count) schema nodes, \(document.fileCount) files, \(warnings.count) warnings, \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        for warning in warnings.prefix(3) { print("  \(warning)") }
        #expect(document.fileCount >= 1)
    }
}
