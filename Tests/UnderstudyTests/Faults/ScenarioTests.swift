import Foundation
import Testing
@testable import Understudy

@Suite struct ScenarioTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/scenarios")

    @Test(arguments: ["flaky-network", "rate-limited", "expired-token", "slow-3g", "outage-then-recovery", "broken-stream"])
    func shippedScenariosLoad(name: String) throws {
        let scenario = try Scenario.load(path: ScenarioTests.directory.appendingPathComponent("\(name).json").path)
        #expect(!scenario.rules.isEmpty)
        #expect(!scenario.description.isEmpty)
    }

    /// `POST /__understudy/scenarios {"name"}` serves built-in copies; they must be the files, every one of them.
    @Test func builtInScenariosAreTheFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ScenarioTests.directory.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        #expect(Set(files) == Set(Scenario.shipped.keys))
        for name in files {
            let text = try String(contentsOf: ScenarioTests.directory.appendingPathComponent("\(name).json"), encoding: .utf8)
            #expect(Scenario.shipped[name].map { $0 + "\n" } == text, "\(name).json")
            #expect(Scenario.shipped(named: name) != nil)
        }
    }

    @Test func aSeedIsAny64BitNumber() throws {
        let scenario = try Scenario.parse(Array(#"{"seed": 18446744073709551615, "rules": []}"#.utf8), file: "s")
        #expect(scenario.seed == .max)
        #expect(throws: FixtureError.self) { try Scenario.parse(Array(#"{"seed": 18446744073709551616, "rules": []}"#.utf8), file: "s") }
    }

    @Test(arguments: [
        ("{\"rules\": [{\"fault\": \"status=999\"}]}", "rules[0].fault", "status must be 204"),
        ("{\"rules\": [{\"fault\": \"status=500\", \"times\": -1}]}", "rules[0]", "Invalid 'times'"),
        ("{\"rules\": 3}", "$", "missing the \"rules\" array"),
        ("{\"rules\": [], \"colour\": 1}", "colour", "unknown field"),
        ("{\"rules\": [}", nil, "expected a value"),
    ] as [(String, String?, String)])
    func badScenariosNameFileAndPosition(text: String, path: String?, reason: String) {
        do {
            _ = try Scenario.parse(Array(text.utf8), file: "s.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.file == "s.json")
            #expect(error.line == 1)
            #expect(error.path == path)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }
}
