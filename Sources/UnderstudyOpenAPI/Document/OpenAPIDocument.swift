import UnderstudyJSON

/// A loaded OpenAPI document, ready to serve: its operations with every reference resolved, its schemas compiled
/// into one graph, and what was found on the way.
package struct OpenAPIDocument: Sendable {
    /// `openapi`: `3.0.3`, `3.1.0`, `3.2.0`…
    package var version: String
    package var title: String
    /// The path parts of `servers` (`/v1`), which a request may or may not carry before an operation's path.
    package var basePaths: [String]
    package var operations: [OpenAPIOperation]
    package var securitySchemes: [String: OpenAPISecurityScheme]
    package var graph: SchemaGraph
    /// The warnings found (an error stops loading).
    package var findings: [DocumentFinding]
    /// How many files it was read from.
    package var fileCount: Int

    /// The schema dialect its schemas are read in by default.
    package var dialect: SchemaDialect {
        version.hasPrefix("3.0") ? .openAPI30 : .draft2020
    }
}
