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
        ("{\"rules\": [], \"description\": {}}", "description", "expected a string"),
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
