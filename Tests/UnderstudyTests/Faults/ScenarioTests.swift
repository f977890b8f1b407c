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
        expectRefused(text, line: 1, path: path, reason: reason)
    }

    /// Parsing `text` fails naming the file, `line`, `path` and a reason containing `reason`.
    private func expectRefused(_ text: String, line: Int, path: String?, reason: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try Scenario.parse(Array(text.utf8), file: "s.json")
            Issue.record("accepted \(text)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.file == "s.json", sourceLocation: sourceLocation)
            #expect(error.line == line, sourceLocation: sourceLocation)
            #expect(error.path == path, sourceLocation: sourceLocation)
            #expect(error.reason.contains(reason), "\(error.reason)", sourceLocation: sourceLocation)
        }
    }

    @Test func tlsFaultsTakeTheNextHandshakesOrAName() throws {
        let text = """
            {"rules": [],
             "tlsFaults": [{"fault": "expired", "times": 2}, {"fault": "reset"},
                           {"fault": "self-signed", "serverName": "api.localhost"}]}
            """
        let scenario = try Scenario.parse(Array(text.utf8), file: "s.json")
        #expect(scenario.tlsFaults == [Fault.TLS(.expired, times: 2), Fault.TLS(.reset), Fault.TLS(.selfSigned, serverName: "api.localhost")])
        #expect(try Scenario.parse(Array(#"{"rules": []}"#.utf8), file: "s.json").tlsFaults.isEmpty)
    }

    /// Each bad TLS fault is named by file, line and JSON path, in the admin API's words.
    @Test(arguments: [
        (#"{"fault": "expird"}"#, "tlsFaults[1]", "Invalid 'fault' - must be one of expired, wrong-host, unknown-issuer, self-signed, wrong-key, reset"),
        (#"{"fault": "reset", "times": 0}"#, "tlsFaults[1]", "Invalid 'times' - must be a whole number from 1 to 10000"),
        (#"{"fault": "reset", "times": 1.5}"#, "tlsFaults[1]", "Invalid 'times' - must be a whole number from 1 to 10000"),
        (#"{"fault": "reset", "times": 2, "serverName": "a.localhost"}"#, "tlsFaults[1]", "give either 'times'"),
        (#"{"fault": "reset", "serverName": "127.0.0.1"}"#, "tlsFaults[1]", "Invalid 'serverName' - must be a host name"),
        (#"{"fault": "reset", "serverName": 7}"#, "tlsFaults[1]", "Invalid 'serverName' - must be a host name"),
        (#"{"fault": "reset", "sni": "a.localhost"}"#, "tlsFaults[1]", "Unknown field 'sni'"),
        (#""expired""#, "tlsFaults[1]", "expected a TLS fault object"),
    ] as [(String, String, String)])
    func badTLSFaultsNameFileLineAndPath(fault: String, path: String, reason: String) {
        expectRefused("{\"rules\": [],\n \"tlsFaults\": [{\"fault\": \"expired\"},\n   \(fault)]}", line: 3, path: path, reason: reason)
    }

    @Test func tlsFaultsMustBeAnArray() {
        #expect(throws: FixtureError.self) { try Scenario.parse(Array(#"{"rules": [], "tlsFaults": {}}"#.utf8), file: "s") }
    }
}
