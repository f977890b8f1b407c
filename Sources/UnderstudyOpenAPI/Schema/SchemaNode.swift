import UnderstudyJSON

/// One compiled schema: its keywords read once into typed fields, its subschemas as indexes into the graph (so a
/// recursive schema is a cycle of indexes, not of values).
package struct SchemaNode: Sendable {
    /// `true` or `false` as a whole schema; nil for an object schema.
    var boolean: Bool?
    /// Where it is, for messages: the document and the JSON pointer (written out only when a message needs it).
    var location = SchemaLocation(document: "")
    /// The URI of the schema resource it belongs to (its `$dynamicRef`s look for anchors from here outwards).
    var resource = ""
    var dialect = SchemaDialect.draft2020
    /// Whether the validation vocabulary is on (a custom meta-schema may leave it out).
    var validates = true

    // References.
    var ref: Int?
    /// A `$dynamicRef`: the anchor name looked for along the dynamic scope (nil: it acts as `$ref`), and its
    /// statically resolved target.
    var dynamicRef: (name: String?, target: Int)?
    /// A reference that could not be resolved: validating against it fails with this message.
    var unresolved: String?

    // Any type.
    var types: JSONTypes?
    var nullable = false
    var enumValues: [JSONValue]?
    var constValue: JSONValue?
    // Numbers.
    var multipleOf: Double?
    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    // Strings.
    var minLength: Int?
    var maxLength: Int?
    var pattern: SchemaPattern?
    var format: String?
    // Arrays.
    var prefixItems: [Int] = []
    var items: Int?
    var contains: Int?
    var minContains: Int?
    var maxContains: Int?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    var unevaluatedItems: Int?
    // Objects.
    var properties: [(name: String, schema: Int)] = []
    var patternProperties: [(pattern: SchemaPattern, schema: Int)] = []
    var additionalProperties: Int?
    var required: [String] = []
    var dependentRequired: [(name: String, required: [String])] = []
    var dependentSchemas: [(name: String, schema: Int)] = []
    var propertyNames: Int?
    var minProperties: Int?
    var maxProperties: Int?
    var unevaluatedProperties: Int?
    // Combinations.
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?
    var ifThenElse: (condition: Int, then: Int?, else: Int?)?

    // What a generator and a mock read.
    var readOnly = false
    var writeOnly = false
    var deprecated = false
    var defaultValue: JSONValue?
    var examples: [JSONValue] = []
    var discriminator: Discriminator?
    /// The schema's own JSON, for a message or an extension a caller reads.
    var title: String?

    /// OpenAPI's `discriminator`: the property that names the schema, and names mapped to schemas.
    struct Discriminator: Sendable {
        var propertyName: String
        var mapping: [(value: String, schema: Int)]
    }

    init() {}
}

/// The JSON types a `type` keyword allows, as a bit set.
package struct JSONTypes: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let null = JSONTypes(rawValue: 1)
    package static let boolean = JSONTypes(rawValue: 2)
    package static let object = JSONTypes(rawValue: 4)
    package static let array = JSONTypes(rawValue: 8)
    package static let number = JSONTypes(rawValue: 16)
    package static let string = JSONTypes(rawValue: 32)
    package static let integer = JSONTypes(rawValue: 64)

    static func named(_ name: String) -> JSONTypes? {
        switch name {
        case "null": .null
        case "boolean": .boolean
        case "object": .object
        case "array": .array
        case "number": .number
        case "string": .string
        case "integer": .integer
        default: nil
        }
    }

    /// The names, in the order a message lists them.
    var names: [String] {
        [(JSONTypes.null, "null"), (.boolean, "boolean"), (.object, "object"), (.array, "array"), (.number, "number"),
         (.string, "string"), (.integer, "integer")].filter { contains($0.0) }.map(\.1)
    }
}
