import UnderstudyJSON
@testable import UnderstudyOpenAPI
import UnderstudyTestSupport

/// The mock of `SpecFixtures.pets`, and a body read back as JSON.
enum MockFixtures {
    static func engine(_ options: MockOptions = MockOptions()) throws -> MockEngine {
        MockEngine(document: try DocumentLoader(readers: DocumentReaders()).load(try JSONParser.parse(SpecFixtures.pets)), options: options)
    }

    static func json(_ response: MockResponse) -> JSONValue? {
        try? JSONParser.parse(response.body)
    }
}
