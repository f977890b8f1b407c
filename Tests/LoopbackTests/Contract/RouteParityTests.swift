import Foundation
import Testing
@testable import Understudy

/// Every path the server serves is in `openapi/openapi.yaml`, and every path there is served.
@Suite struct RouteParityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `paths:` keys of the spec: lines indented by exactly two spaces that start with `/`.
    static var specPaths: [String] {
        let text = (try? String(contentsOf: root.appendingPathComponent("openapi/openapi.yaml"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") else { return nil }
            return String(line.dropFirst(2).dropLast())
        }
    }

    @Test func theSpecAndTheRouteTableListTheSamePaths() {
        let spec = RouteParityTests.specPaths
        #expect(!spec.isEmpty)
        #expect(Set(spec) == Set(RouteTable.paths), "only in spec: \(Set(spec).subtracting(RouteTable.paths)); only served: \(Set(RouteTable.paths).subtracting(spec))")
    }

    @Test(arguments: RouteTable.paths)
    func everyListedPathIsServed(template: String) async throws {
        let path = template.replacingOccurrences(of: "{id}", with: template.contains("faults") || template.contains("sessions") ? "missing" : "1")
            .replacingOccurrences(of: "{slug}", with: "laptops").replacingOccurrences(of: "{code}", with: "200")
            .replacingOccurrences(of: "{message}", with: "fine")
        try await withServer { _, client in
            let token = try await client.accessToken()
            var replies: [HTTPTestClient.Reply] = []
            for method in ["GET", "POST", "PUT", "DELETE"] {
                replies.append(try await client.send(method, path + (path.hasSuffix("stream") ? "?count=1&interval=10" : ""),
                                                     headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]))
            }
            // Served: at least one method gets an answer that is not the unknown-route 404.
            #expect(replies.contains { !($0.message ?? "").hasPrefix("Route ") && !($0.message ?? "").hasPrefix("Admin route ") },
                    "\(template) is not served")
        }
    }

    @Test func unlistedPathsAreNotServed() async throws {
        try await withServer { _, client async throws in
            for path in ["/carts", "/products/1/reviews", "/auth", "/__understudy", "/__understudy/nothing"] {
                #expect(try await client.send(path).status == 404, "\(path)")
            }
        }
    }
}
