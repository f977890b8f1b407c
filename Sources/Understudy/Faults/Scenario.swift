import Foundation
import UnderstudyJSON

/// A file of fault rules to load at start-up (`understudy --scenario PATH`), and of TLS faults for a server that
/// serves HTTPS:
///
/// ```json
/// {"description": "Every third request fails", "seed": 7,
///  "rules": [{"match": {"path": "/products*"}, "fault": "status=503", "probability": 0.33}],
///  "tlsFaults": [{"fault": "expired", "times": 2}, {"fault": "reset", "serverName": "localhost"}]}
/// ```
public struct Scenario: Sendable {
    /// What the scenario simulates, for people reading the file or `--help`.
    public var description: String
    /// The seed to run with, when the scenario fixes one.
    public var seed: UInt64?
    /// The rules it installs, in matching order.
    public var rules: [FaultRule]
    /// The TLS faults it sets, in order (`"tlsFaults"`); they need a server that serves HTTPS.
    public var tlsFaults: [Fault.TLS] = []

    /// Reads and checks a scenario file; every rule's spec is parsed, so a bad one stops start-up.
    /// - Throws: `FixtureError` naming the file, the line and column, the JSON path and the problem.
    public static func load(path: String) throws(FixtureError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError(file: path, line: nil, column: nil, path: nil, reason: "cannot be read (is the path right?)")
        }
        return try parse(Array(data), file: path)
    }

    /// Parses a scenario from its JSON text.
    public static func parse(_ bytes: [UInt8], file: String) throws(FixtureError) -> Scenario {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw FixtureError(file: file, line: error.line, column: error.column, path: nil, reason: error.reason)
        }
        func failure(_ path: [JSONPathComponent], _ reason: String) -> FixtureError {
            let position = JSONParser.position(of: path, in: bytes)
            return FixtureError(file: file, line: position?.line, column: position?.column,
                                path: path.pathDescription, reason: reason)
        }
        guard case .object(let object) = document else { throw failure([], "expected an object with a \"rules\" array") }
        if let unknown = object.keys.first(where: { !["description", "seed", "rules", "tlsFaults"].contains($0) }) {
            throw failure([.key(unknown)], "unknown field; expected description, seed, rules and tlsFaults")
        }
        guard case .array(let elements)? = object["rules"] else { throw failure([], "missing the \"rules\" array") }
        var scenario = Scenario(description: "", seed: nil, rules: [], tlsFaults: [])
        if let description = object["description"] {
            // Refused rather than read as "": the spec (and so schemathesis) holds it to a string.
            guard let text = description.stringValue else { throw failure([.key("description")], "expected a string") }
            scenario.description = text
        }
        if let seed = object["seed"] {
            guard case .number(let number) = seed, let value = number.unsignedInteger else {
                throw failure([.key("seed")], "expected a whole number from 0 to \(UInt64.max)")
            }
            scenario.seed = value
        }
        for (index, element) in elements.enumerated() {
            let path: [JSONPathComponent] = [.key("rules"), .index(index)]
            guard case .object(let fields) = element else { throw failure(path, "expected a rule object") }
            do {
                let rule = try FaultJSON.rule(fields)
                _ = try FaultSpec(parsing: rule.fault)
                scenario.rules.append(rule)
            } catch let error as APIError {
                throw failure(path, error.message)
            } catch let error as FaultSpecError {
                throw failure(path + [.key("fault")], error.description)
            } catch {
                throw failure(path, "\(error)")
            }
        }
        if let value = object["tlsFaults"] {
            guard case .array(let faults) = value else { throw failure([.key("tlsFaults")], "expected an array of TLS faults") }
            for (index, element) in faults.enumerated() {
                let path: [JSONPathComponent] = [.key("tlsFaults"), .index(index)]
                guard case .object(let fields) = element else {
                    throw failure(path, "expected a TLS fault object such as {\"fault\": \"expired\", \"times\": 2}")
                }
                do throws(APIError) {
                    scenario.tlsFaults.append(try FaultJSON.tlsFault(fields))
                } catch {
                    throw failure(path, error.message)
                }
            }
        }
        return scenario
    }
}
