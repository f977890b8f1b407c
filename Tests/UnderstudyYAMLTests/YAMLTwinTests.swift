import Foundation
import Testing
import UnderstudyJSON
import UnderstudyTestSupport
@testable import UnderstudyYAML

/// Real documents published as YAML and JSON twins load into identical trees: OpenAI's 3 MB 3.1 document and every
/// OAI example (3.0, 3.1, 3.2). One pair differs upstream: tictactoe's JSON lacks five members its YAML has (the
/// webhook, a link, a parameter list, a callback and a 202), and exactly those are the differences found.
@Suite struct YAMLTwinTests {
    static let twins: [String] = {
        let folder = SharedData.conformance("openapi/OAI-learn.openapis.org/examples")
        var pairs = ["openapi/openai-openai-openapi/openapi"]
        for version in ["v3.0", "v3.1", "v3.2"] {
            let directory = folder.appendingPathComponent(version)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".yaml") {
                pairs.append("openapi/OAI-learn.openapis.org/examples/\(version)/\(name.dropLast(5))")
            }
        }
        return pairs
    }()

    @Test func thereAreTwinsToCompare() {
        #expect(Self.twins.count >= 11)
    }

    @Test(arguments: twins) func theYAMLAndJSONTwinsAreOneTree(_ stem: String) throws {
        let yaml = try YAMLReader.document(try SharedData.bytes(SharedData.conformance(stem + ".yaml")))
        let json = try JSONParser.parse(try SharedData.bytes(SharedData.conformance(stem + ".json")))
        let differences = Self.differences(yaml, json, at: "")
        let upstream: Set<String> = stem.hasSuffix("tictactoe") ? [
            "/webhooks", "/paths/~1board~1{row}~1{column}/get/responses/200/links",
            "/paths/~1board~1{row}~1{column}/put/parameters", "/paths/~1board~1{row}~1{column}/put/callbacks",
            "/paths/~1board~1{row}~1{column}/put/responses/202",
        ] : []
        #expect(Set(differences) == upstream)
    }

    /// The JSON pointers at which two trees differ (a member only one side has, or a different value).
    static func differences(_ left: JSONValue, _ right: JSONValue, at pointer: String) -> [String] {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            var found: [String] = []
            for key in Set(a.keys).union(b.keys) {
                let path = pointer + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                switch (a[key], b[key]) {
                case (let x?, let y?): found += differences(x, y, at: path)
                default: found.append(path)
                }
            }
            if found.isEmpty, a.keys != b.keys { found.append(pointer + " (order)") }
            return found
        case (.array(let a), .array(let b)) where a.count == b.count:
            return zip(a, b).enumerated().flatMap { differences($0.element.0, $0.element.1, at: pointer + "/\($0.offset)") }
        default:
            return left == right ? [] : [pointer]
        }
    }
}
