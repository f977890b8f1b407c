import Foundation
import Testing
import UnderstudyJSON
import UnderstudyTestSupport
@testable import UnderstudyYAML

/// yaml-test-suite (402 cases, shared/conformance/yaml-test-suite): every case with an `in.json` loads into trees
/// equal to it (as JSON: an object's keys in any order), and every case marked as an error is refused. Any case
/// that does otherwise is named.
@Suite struct YAMLTestSuiteTests {
    struct Case {
        let id: String
        let name: String
        let directory: URL
        var has: (json: Bool, error: Bool)
    }

    /// Every case directory: `ID/` or, for cases with sub-cases, `ID/00/`, `ID/01/`….
    static func cases() throws -> [Case] {
        let root = SharedData.conformance("yaml-test-suite")
        let manager = FileManager.default
        guard let ids = try? manager.contentsOfDirectory(atPath: root.path) else { throw SharedDataMissing(path: root.path) }
        var found: [Case] = []
        for id in ids.sorted() {
            let directory = root.appendingPathComponent(id)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let folders = manager.fileExists(atPath: directory.appendingPathComponent("in.yaml").path)
                ? [(id, directory)]
                : (try manager.contentsOfDirectory(atPath: directory.path)).sorted().map { ("\(id)/\($0)", directory.appendingPathComponent($0)) }
            for (caseID, folder) in folders where manager.fileExists(atPath: folder.appendingPathComponent("in.yaml").path) {
                let name = (try? String(contentsOf: folder.appendingPathComponent("==="), encoding: .utf8)) ?? ""
                found.append(Case(id: caseID, name: name.trimmingCharacters(in: .whitespacesAndNewlines), directory: folder,
                                  has: (manager.fileExists(atPath: folder.appendingPathComponent("in.json").path),
                                        manager.fileExists(atPath: folder.appendingPathComponent("error").path))))
            }
        }
        return found
    }

    /// The values of a JSON text stream (`in.json` holds one per document, one after another).
    static func jsonStream(_ bytes: [UInt8]) throws -> [JSONValue] {
        var values: [JSONValue] = []
        var start = 0
        var end = 0
        while start < bytes.count {
            while start < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[start]) { start += 1 }
            guard start < bytes.count else { break }
            end = start + 1
            // The shortest prefix that parses, ending at a line's end, is the next value.
            while true {
                while end < bytes.count, bytes[end - 1] != 0x0A { end += 1 }
                if let value = try? JSONParser.parse(Array(bytes[start..<end])) {
                    values.append(value)
                    break
                }
                guard end < bytes.count else { throw JSONStreamError(offset: start) }
                end += 1
            }
            start = end
        }
        return values
    }

    struct JSONStreamError: Error { let offset: Int }

    @Test func everyCaseWithJSONThatLoadsEqualsIt() throws {
        let all = try Self.cases()
        #expect(all.count == 402)
        var equal = 0
        var different: [String] = []
        var refused: [String] = []
        for item in all where item.has.json && !item.has.error {
            let yaml = try SharedData.bytes(item.directory.appendingPathComponent("in.yaml"))
            let expected = try Self.jsonStream(try SharedData.bytes(item.directory.appendingPathComponent("in.json")))
            do {
                let loaded = try YAMLReader.documents(yaml)
                if loaded.count == expected.count, zip(loaded, expected).allSatisfy({ $0.sameJSON(as: $1) }) {
                    equal += 1
                } else {
                    different.append("\(item.id) \(item.name)")
                }
            } catch {
                refused.append("\(item.id) \(item.name): \(error)")
            }
        }
        #expect(different.isEmpty, "loaded, but not as in.json: \(different.joined(separator: "; "))")
        #expect(refused.isEmpty, "refused: \(refused.joined(separator: "; "))")
        #expect(equal == 279)
    }

    @Test func everyErrorCaseIsRefused() throws {
        var accepted: [String] = []
        var total = 0
        for item in try Self.cases() where item.has.error {
            total += 1
            let yaml = try SharedData.bytes(item.directory.appendingPathComponent("in.yaml"))
            if (try? YAMLReader.documents(yaml)) != nil { accepted.append("\(item.id) \(item.name)") }
        }
        #expect(total == 94)
        #expect(accepted.isEmpty, "accepted: \(accepted.joined(separator: "; "))")
    }
}

extension JSONValue {
    /// Equal as JSON: an object's members in any order.
    func sameJSON(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let left), .object(let right)):
            guard left.entries.count == right.entries.count else { return false }
            return left.entries.allSatisfy { entry in right[entry.key].map { entry.value.sameJSON(as: $0) } ?? false }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.sameJSON(as: $1) }
        default:
            return self == other
        }
    }
}
