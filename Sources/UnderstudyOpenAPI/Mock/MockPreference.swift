/// What a request asks of the mock, as Prism reads it: `Prefer: code=404, example=mine, dynamic=true, seed=7`, or
/// with no `Prefer` header the query's `__code`, `__example`, `__dynamic` and `__seed` (a `Prefer` header wins
/// over the query, wholly). `;` separates them too, which Prism does not allow.
package struct MockPreference: Sendable, Equatable {
    package var code: Int?
    package var example: String?
    package var dynamic: Bool?
    package var seed: String?

    package init(code: Int? = nil, example: String? = nil, dynamic: Bool? = nil, seed: String? = nil) {
        self.code = code
        self.example = example
        self.dynamic = dynamic
        self.seed = seed
    }

    /// Whether it asks for nothing.
    package var isEmpty: Bool { self == MockPreference() }

    /// A preference that names something invalid: the message names it.
    package struct Invalid: Error, Sendable {
        package var message: String
    }

    /// Reads a request's preference.
    static func of(_ request: MockRequest) throws(Invalid) -> MockPreference {
        if let header = request.header("Prefer") {
            var pairs: [(String, String)] = []
            for part in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
                let pieces = part.split(separator: "=", maxSplits: 1)
                let name = pieces[0].trimmingCharacters(in: " \t").lowercased()
                var value = pieces.count > 1 ? pieces[1].trimmingCharacters(in: " \t") : ""
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                pairs.append((name, value))
            }
            return try read(pairs, source: "Prefer")
        }
        let query = request.query.filter { $0.name.hasPrefix("__") }.map { (String($0.name.dropFirst(2)), $0.value) }
        return try read(query, source: "query")
    }

    private static func read(_ pairs: [(String, String)], source: String) throws(Invalid) -> MockPreference {
        var preference = MockPreference()
        for (name, value) in pairs {
            switch name {
            case "code":
                guard value.count == 3, let code = Int(value), (100...599).contains(code) else {
                    throw Invalid(message: "Invalid '\(source == "Prefer" ? "Prefer: code" : "__code")' - '\(value)' is not a status code from 100 to 599")
                }
                preference.code = preference.code ?? code
            case "example":
                preference.example = preference.example ?? value
            case "dynamic":
                guard value == "true" || value == "false" else {
                    throw Invalid(message: "Invalid '\(source == "Prefer" ? "Prefer: dynamic" : "__dynamic")' - must be true or false, not '\(value)'")
                }
                preference.dynamic = preference.dynamic ?? (value == "true")
            case "seed":
                preference.seed = preference.seed ?? value
            default:
                // Other preferences (`return=minimal`, `respond-async`, `wait`) are not the mock's.
                continue
            }
        }
        return preference
    }

    /// The text of a `Prefer` header asking for this.
    package var header: String {
        [code.map { "code=\($0)" }, example.map { "example=\($0)" }, dynamic.map { "dynamic=\($0)" }, seed.map { "seed=\($0)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}
