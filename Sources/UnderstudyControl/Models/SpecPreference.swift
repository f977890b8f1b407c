import Foundation

/// Which response a served OpenAPI document (`understudy --spec`) answers with, as Prism's `Prefer` header says it:
/// a status, a named example, generated data, a seed.
///
/// Put one on a request (`URLRequest.specPreference`), or on every request of an operation
/// (``ControlClient/prefer(_:forOperation:)``); a request's own wins.
///
/// ```swift
/// var request = URLRequest(url: server.url.appending(path: "pets/1"))
/// request.specPreference = .code(404)
/// ```
public struct SpecPreference: Sendable, Hashable, Codable {
    /// The status to answer with: a documented one, else its range (`4XX`), else `default`.
    public var code: Int?
    /// The name of an example of the chosen response's media type.
    public var example: String?
    /// Data generated from the response's schema (`true`) rather than its examples (`false`).
    public var dynamic: Bool?
    /// The seed generated data is drawn with: the same seed, the same bytes.
    public var seed: String?

    /// A preference of any of the four; nil leaves each to the server.
    public init(code: Int? = nil, example: String? = nil, dynamic: Bool? = nil, seed: String? = nil) {
        self.code = code
        self.example = example
        self.dynamic = dynamic
        self.seed = seed
    }

    /// The response documented for `status` (or its range, or `default`).
    public static func code(_ status: Int) -> SpecPreference { SpecPreference(code: status) }

    /// The example called `name`.
    public static func example(_ name: String) -> SpecPreference { SpecPreference(example: name) }

    /// Data generated from the schema, drawn with `seed` when given.
    public static func dynamic(seed: String? = nil) -> SpecPreference { SpecPreference(dynamic: true, seed: seed) }

    /// The `Prefer` header's value: `code=404, example=lost, dynamic=true, seed=7`.
    public var headerValue: String {
        var parts: [String] = []
        if let code { parts.append("code=\(code)") }
        if let example { parts.append("example=\(example)") }
        if let dynamic { parts.append("dynamic=\(dynamic)") }
        if let seed { parts.append("seed=\(seed)") }
        return parts.joined(separator: ", ")
    }

    /// Reads a `Prefer` header's value; nil when it names none of the four.
    ///
    /// - Parameter headerValue: The header's value, e.g. `code=404, dynamic=true`.
    public init?(headerValue: String) {
        for part in headerValue.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "code": code = Int(pair[1])
            case "example": example = pair[1]
            case "dynamic": dynamic = pair[1].lowercased() == "true" ? true : pair[1].lowercased() == "false" ? false : nil
            case "seed": seed = pair[1]
            default: continue
            }
        }
        if code == nil, example == nil, dynamic == nil, seed == nil { return nil }
    }
}
