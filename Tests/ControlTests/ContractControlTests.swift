import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyControl
import UnderstudyTestSupport

/// The contract report through `UnderstudyControl`: `understudy --upstream URL --spec openapi/openapi.yaml` in front
/// of another `understudy`, each in a process of its own, so a test can assert the contract held.
@Suite(.blocksThreads) struct ContractControlTests {
    private static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi/openapi.yaml").path

    private func get(_ base: URL, _ path: String) async throws -> HTTPURLResponse? {
        let request = URLRequest(url: URL(string: path, relativeTo: base)!, timeoutInterval: 10)
        return try await URLSession.shared.data(for: request).1 as? HTTPURLResponse
    }

    @Test func aTestAssertsTheContractHeldAndReadsWhatBrokeIt() async throws {
        try await ServerProcess.with { upstream in
            try await ServerProcess.with(["--upstream", upstream.baseURL.absoluteString, "--spec", Self.document]) { proxy in
                let control = proxy.control
                #expect(try await get(proxy.baseURL, "/products/1")?.statusCode == 200)
                var report = try await control.contractReport()
                #expect(report.exchanges == 1)
                #expect(report.violations == 0)
                #expect(report.operations.first?.operation == "getProduct")

                // Quotes run to 1454 in the document: asking for 99999 breaks it (the upstream still answers 404).
                let broken = try await get(proxy.baseURL, "/quotes/99999")
                #expect(broken?.statusCode == 404)
                #expect(broken?.value(forHTTPHeaderField: "X-Understudy-Violations")?.contains("maximum") == true)
                report = try await control.contractReport()
                #expect(report.violations == 1)
                #expect(report.replyViolations == 0, "a request's violation is no reply's")
                let violation = try #require(report.recent.first?.violations.first)
                #expect(violation.location == ["request", "path", "id"])
                #expect(violation.keyword == "maximum")
                #expect(violation.description == "request.path.id: maximum: path parameter 'id' must be <= 1454")
                #expect(try await control.clearContractReport() == 1)
                #expect(try await control.contractReport().exchanges == 0)
            }
            await #expect { try await upstream.control.contractReport() } throws: { ($0 as? ControlError)?.kind == .conflict }
        }
    }
}
