import Testing
import UnderstudyJSON
import UnderstudyTestSupport
@testable import UnderstudyOpenAPI

/// Every response and request schema of the public documents, generated statically and with three seeds: each value
/// validates against its schema, and a seed gives the same value twice.
@Suite struct GeneratorRealDocumentTests {
    @Test(arguments: RealDocumentTests.documents) func everyGeneratedValueValidates(_ name: String) throws {
        let document = try RealDocumentTests.load(name)
        let validator = SchemaValidator(graph: document.graph)
        var schemas: [(Int, ValueGenerator.Direction, String)] = []
        for operation in document.operations {
            for response in operation.responses {
                for media in response.content { if let schema = media.schema { schemas.append((schema, .response, "\(operation.id) \(response.code) \(media.type)")) } }
            }
            for media in operation.requestBody?.content ?? [] {
                if let schema = media.schema { schemas.append((schema, .request, "\(operation.id) request \(media.type)")) }
            }
        }
        var failures: [String] = []
        for (schema, direction, label) in schemas {
            for mode in [ValueGenerator.Mode.static, .dynamic] {
                let generator = ValueGenerator(graph: document.graph, mode: mode, direction: direction)
                for seed in mode == .static ? [UInt64(1)] : [1, 2, 3] {
                    let value = generator.value(for: schema, random: SeededRandom(seed: seed))
                    let violations = validator.violations(of: value, against: schema)
                    if !violations.isEmpty {
                        failures.append("\(label) \(mode) seed \(seed): \(violations.prefix(2).map(\.description).joined(separator: "; "))")
                    }
                    if mode == .dynamic {
                        #expect(generator.value(for: schema, random: SeededRandom(seed: seed)) == value, "\(label) seed \(seed) twice")
                    }
                }
            }
        }
        print("\(name): \(schemas.count) schemas, \(failures.count) generated values invalid")
        for failure in failures.prefix(8) { print("  \(failure)") }
        #expect(failures.isEmpty)
    }
}
