/// Which JSON Schema a schema is read as: OpenAPI 3.0's (draft 4's subset, with `nullable`, boolean
/// `exclusiveMaximum` and `$ref` that replaces its siblings) or JSON Schema 2020-12 (OpenAPI 3.1's default).
package enum SchemaDialect: Sendable, Equatable {
    /// OpenAPI 3.0's Schema Object, also draft 4 (`id`, `definitions`, array `items`, `dependencies`).
    case openAPI30
    /// JSON Schema 2020-12, OpenAPI 3.1's: `$ref` beside other keywords, `prefixItems`, `unevaluated*`, `$dynamicRef`.
    case draft2020

    /// The `$schema` URIs read as each dialect.
    static func named(_ uri: String) -> SchemaDialect? {
        let trimmed = uri.hasSuffix("#") ? String(uri.dropLast()) : uri
        switch trimmed {
        case "http://json-schema.org/draft-04/schema", "https://json-schema.org/draft-04/schema",
             "https://spec.openapis.org/oas/3.0/schema/2021-09-28":
            return .openAPI30
        case "https://json-schema.org/draft/2020-12/schema", "https://spec.openapis.org/oas/3.1/dialect/base",
             "https://spec.openapis.org/oas/3.1/dialect/2024-11-10", "https://spec.openapis.org/oas/3.1/dialect/2024-10-25":
            return .draft2020
        default:
            return nil
        }
    }

    /// The keyword that gives a schema its URI: 2020-12's `$id`. OpenAPI 3.0's Schema Object has none (draft 4's
    /// `id` is not in it), and a property or example called `id` must not move a base URI.
    var idKeyword: String? {
        self == .draft2020 ? "$id" : nil
    }
}
