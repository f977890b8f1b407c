import Testing
import UnderstudyJSON
@testable import UnderstudyYAML

/// The tree JSON tools see: YAML 1.1's surprises stay strings, keys are strings, and every limit is an error with
/// a position rather than a crash.
@Suite struct YAMLReaderTests {
    private func load(_ text: String, options: YAMLOptions = YAMLOptions()) throws(YAMLError) -> JSONValue {
        try YAMLReader.document(Array(text.utf8), options: options)
    }

    private func error(_ text: String, options: YAMLOptions = YAMLOptions()) -> YAMLError? {
        do {
            _ = try load(text, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func yaml11sSurprisesStayStrings() throws {
        let tree = try load("""
            a: on
            b: yes
            c: NO
            d: 0755
            e: 2024-01-01
            f: 12:30
            g: y
            """)
        for key in ["a", "b", "c", "d", "e", "f", "g"] {
            #expect(tree[key]?.stringValue != nil, "\(key) is \(String(describing: tree[key]))")
        }
        #expect(tree["d"] == .string("0755"))
    }

    @Test func theCoreSchemasScalars() throws {
        let tree = try load("""
            int: 12
            neg: -3
            octal: 0o14
            hex: 0xC
            float: 1.5e3
            dot: .5
            inf: .inf
            t: true
            f: False
            n: ~
            empty:
            quoted: "12"
            tagged: !!str 12
            """)
        #expect(tree["int"] == .number(JSONNumber(12)))
        #expect(tree["neg"] == .number(JSONNumber(-3)))
        #expect(tree["octal"] == .number(JSONNumber(12)))
        #expect(tree["hex"] == .number(JSONNumber(12)))
        #expect(tree["float"] == .number(JSONNumber(1_500)))
        #expect(tree["dot"] == .number(JSONNumber(0.5)))
        #expect(tree["inf"]?.doubleValue == .infinity)
        #expect(tree["t"] == .bool(true))
        #expect(tree["f"] == .bool(false))
        #expect(tree["n"] == .null)
        #expect(tree["empty"] == .null)
        #expect(tree["quoted"] == .string("12"))
        #expect(tree["tagged"] == .string("12"))
    }

    @Test func keysAreTheTextJSONToolsWrite() throws {
        let tree = try load("""
            200: ok
            "404": missing
            true: yes
            ~: nothing
            """)
        guard case .object(let object) = tree else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["200", "404", "true", "null"])
    }

    @Test func aDuplicateKeyIsAnErrorAtTheSecond() {
        let found = error("a: 1\nb: 2\na: 3\n")
        #expect(found?.line == 3)
        #expect(found?.column == 1)
        #expect(found?.reason == "duplicate key 'a'")
    }

    @Test func aComplexKeyIsAnError() {
        #expect(error("? [a, b]\n: c\n")?.reason.contains("JSON keys are strings") == true)
    }

    @Test func mergeKeysAreOffByDefault() throws {
        let text = "base: &b {x: 1, y: 2}\nchild:\n  <<: *b\n  y: 3\n"
        let plain = try load(text)
        #expect(plain["child"]?["<<"]?["x"] == .number(JSONNumber(1)))
        var options = YAMLOptions()
        options.mergeKeys = true
        let merged = try load(text, options: options)
        #expect(merged["child"]?["x"] == .number(JSONNumber(1)))
        #expect(merged["child"]?["y"] == .number(JSONNumber(3)))
        #expect(merged["child"]?["<<"] == nil)
    }

    @Test func aliasesExpandWithinABudget() throws {
        let tree = try load("a: &a {k: v}\nb: *a\n")
        #expect(tree["b"] == tree["a"])
        // Nine levels of ten aliases each: a billion nodes.
        var bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        let names = "abcdefghi"
        for (index, name) in names.dropFirst().enumerated() {
            let previous = names[names.index(names.startIndex, offsetBy: index)]
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]\n"
        }
        let refused = error(bomb)
        #expect(refused?.reason.contains("alias bomb") == true)
        #expect(refused.map { $0.line > 1 } == true)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        let refused = error(deep)
        #expect(refused?.reason == "nesting deeper than 512 levels")
        #expect(refused?.column == 513)
        #expect(error(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)) != nil)
    }

    @Test func aSyntaxErrorNamesItsPlace() {
        let refused = error("a: 1\nb: [1, 2\nc: 3\n")
        #expect(refused != nil)
        #expect((refused?.line ?? 0) >= 2)
    }

    @Test func anUnknownAliasIsAnError() {
        #expect(error("a: *nowhere\n") != nil)
    }

    @Test func oneDocumentIsExpected() {
        #expect(error("")?.reason == "the file holds no document")
        #expect(error("a: 1\n---\nb: 2\n")?.reason == "the file holds 2 documents; one is expected")
    }
}
