import Foundation
import Testing
import UnderstudyJSON
import UnderstudyTestSupport
@testable import UnderstudyYAML

/// The positions noted while a tree is built are the ones a second read of the text finds, for every kind of node:
/// block and flow collections, block scalars, quoted keys, an alias, and a real 3 MB document.
@Suite struct YAMLPositionsTests {
    /// Every pointer of `tree` (containers and leaves), in document order.
    private func pointers(_ value: JSONValue, at prefix: [String] = []) -> [[String]] {
        var all = [prefix]
        switch value {
        case .object(let object): for entry in object.entries { all += pointers(entry.value, at: prefix + [entry.key]) }
        case .array(let items): for (index, item) in items.enumerated() { all += pointers(item, at: prefix + [String(index)]) }
        default: break
        }
        return all
    }

    @Test func everyNodeIsWhereASecondReadFindsIt() throws {
        let text = """
            openapi: 3.1.0
            info: {title: "Pets", version: '1'}
            paths:
              /pets:
                get:
                  description: |
                    Lists pets.
                  parameters: [{name: limit, in: query}, {name: "q", in: query}]
                  responses:
                    "200": &ok
                      description: fine
                    404: *ok
                    default:
                      - a
                      - [b, c]
                      -
                        nested: true
            """
        let bytes = Array(text.utf8)
        let (tree, marks) = try YAMLReader.documentAndPositions(bytes)
        let all = Set(pointers(tree))
        let noted = try #require(marks).positions(of: all, in: tree)
        let read = YAMLReader.positions(of: all, in: bytes)
        // Inside the alias's value (404's description) nothing is noted; a second read finds nothing there either.
        #expect(noted.count == read.count)
        for pointer in all { #expect(noted[pointer]?.line == read[pointer]?.line && noted[pointer]?.column == read[pointer]?.column) }
        #expect(noted[["paths", "/pets", "get", "responses", "404"]]?.line == 12)
        #expect(noted[["paths", "/pets", "get", "parameters", "0", "name"]]?.column == 27)
    }

    @Test func aRealDocumentsPositionsAreTheSecondReadsToo() throws {
        let bytes = try SharedData.bytes(SharedData.conformance("openapi/openai-openai-openapi/openapi.yaml"))
        let (tree, marks) = try YAMLReader.documentAndPositions(bytes)
        let all = pointers(tree)
        let sample = Set(stride(from: 0, to: all.count, by: 41).map { all[$0] })
        let noted = try #require(marks).positions(of: sample, in: tree)
        let read = YAMLReader.positions(of: sample, in: bytes)
        #expect(sample.count > 1_000)
        #expect(noted.count == sample.count)
        for pointer in sample { #expect(noted[pointer]?.line == read[pointer]?.line && noted[pointer]?.column == read[pointer]?.column) }
    }

    @Test func mergeKeysAreFoundByASecondRead() throws {
        var options = YAMLOptions()
        options.mergeKeys = true
        let (_, marks) = try YAMLReader.documentAndPositions(Array("base: &b {x: 1}\nthing:\n  <<: *b\n".utf8), options: options)
        #expect(marks == nil)
    }
}
