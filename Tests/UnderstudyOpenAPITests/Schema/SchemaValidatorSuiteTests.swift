import Testing
import UnderstudyJSON
import UnderstudyTestSupport
@testable import UnderstudyOpenAPI

/// JSON-Schema-Test-Suite through the compiler and the validator alone (the loopback suite posts the same cases to a
/// server): draft 2020-12's required cases, and draft 4's cases that keep to OpenAPI 3.0's keywords.
@Suite struct SchemaValidatorSuiteTests {
    /// Validates each test of `cases`; the failures, as `file: case: test`.
    static func failures(_ cases: [JSONSchemaSuite.Case], dialect: SchemaDialect) -> (passed: Int, failed: [String]) {
        var passed = 0
        var failed: [String] = []
        for item in cases {
            let registry = SchemaRegistry(fetch: JSONSchemaSuite.remote)
            let compiler = SchemaCompiler(registry: registry, dialect: dialect)
            let root = compiler.compile(item.schema, uri: "https://understudy.invalid/root.json")
            let validator = SchemaValidator(graph: compiler.makeGraph())
            for test in item.tests {
                if validator.isValid(test.data, against: root) == test.valid,
                   validator.violations(of: test.data, against: root).isEmpty == test.valid {
                    passed += 1
                } else {
                    failed.append("\(item.file): \(item.description): \(test.description)")
                }
            }
        }
        return (passed, failed)
    }

    @Test func draft2020RequiredCases() throws {
        let (passed, failed) = Self.failures(try JSONSchemaSuite.cases("draft2020-12"), dialect: .draft2020)
        print("draft2020-12: \(passed) of \(passed + failed.count) pass")
        for failure in failed { print("  FAIL \(failure)") }
        #expect(passed + failed.count == 1_299)
        // The two left need the 2020-12 meta-schema itself, which is not built in: a document that validates a
        // schema against it is no OpenAPI document's business.
        #expect(Set(failed) == [
            "defs.json: validate definition against metaschema: valid definition schema",
            "ref.json: remote ref, containing refs itself: remote ref valid",
        ])
    }

    @Test func draft4CasesInOpenAPI30sSubset() throws {
        let subset = try JSONSchemaSuite.cases("draft4").filter {
            JSONSchemaSuite.keywords(of: $0.schema).isSubset(of: JSONSchemaSuite.openAPI30Keywords)
        }
        let (passed, failed) = Self.failures(subset, dialect: .openAPI30)
        print("draft4 (OpenAPI 3.0's keywords): \(passed) of \(passed + failed.count) pass")
        for failure in failed { print("  FAIL \(failure)") }
        #expect(failed.isEmpty)
        #expect(passed > 300)
    }
}
