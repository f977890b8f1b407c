import UnderstudyJSON

/// Validates values against a compiled graph: every keyword of both dialects, `$ref` and `$dynamicRef` (with the
/// dynamic scope of schema resources entered), and the annotations `unevaluatedProperties` and `unevaluatedItems`
/// read (kept only when a schema of the graph uses them). `format` is an annotation, as 2020-12 says, unless
/// `assertsFormats` asks for the formats a mock can check.
package struct SchemaValidator: Sendable {
    package let graph: SchemaGraph
    /// At most this many violations are reported (the first failures of each branch).
    package var maximumViolations = 32
    /// Whether `format` is asserted (date-time, date, email, uuid, uri, ipv4, ipv6, int32, int64…).
    package var assertsFormats = false
    /// The side of an exchange a value is: a request need not send a required `readOnly` property, nor a response
    /// a `writeOnly` one (OpenAPI's rule). Nil: JSON Schema's, every required property.
    package var side: Side?

    package enum Side: Sendable {
        case request, response
    }

    package init(graph: SchemaGraph) {
        self.graph = graph
    }

    /// Every violation of `value` against the schema `root` (empty: valid).
    package func violations(of value: JSONValue, against root: Int) -> [SchemaViolation] {
        let run = SchemaEvaluation(graph: graph, limit: maximumViolations, assertsFormats: assertsFormats, side: side)
        return run.evaluate(root, value, path: [], collect: true).violations
    }

    /// Whether `value` is valid against the schema `root`.
    package func isValid(_ value: JSONValue, against root: Int) -> Bool {
        let run = SchemaEvaluation(graph: graph, limit: 0, assertsFormats: assertsFormats, side: side)
        return run.evaluate(root, value, path: [], collect: false).valid
    }
}

/// What a schema said about a value: valid or not, why not, and which of its members or items it looked at.
struct SchemaOutcome {
    var valid = true
    var violations: [SchemaViolation] = []
    /// Properties some keyword evaluated (`properties`, `patternProperties`, `additionalProperties`, …).
    var properties: Set<String> = []
    var allProperties = false
    /// Items evaluated from the start (`prefixItems`), every item (`items`), and those `contains` matched.
    var items = 0
    var allItems = false
    var itemIndexes: Set<Int> = []

    mutating func fail(_ violation: SchemaViolation) {
        valid = false
        violations.append(violation)
    }

    /// Takes a subschema's annotations, when it passed (a failed one's are dropped).
    mutating func absorb(_ other: SchemaOutcome) {
        guard other.valid else { return }
        properties.formUnion(other.properties)
        allProperties = allProperties || other.allProperties
        items = max(items, other.items)
        allItems = allItems || other.allItems
        itemIndexes.formUnion(other.itemIndexes)
    }
}

/// One validation: the dynamic scope and the depth, as a class so each keyword does not copy them.
final class SchemaEvaluation {
    let graph: SchemaGraph
    let limit: Int
    let assertsFormats: Bool
    let side: SchemaValidator.Side?
    /// The resources entered, outermost first: where `$dynamicRef` looks for its anchor.
    private var scope: [String] = []
    private var depth = 0
    static let maximumDepth = 256

    init(graph: SchemaGraph, limit: Int, assertsFormats: Bool, side: SchemaValidator.Side?) {
        self.graph = graph
        self.limit = limit
        self.assertsFormats = assertsFormats
        self.side = side
    }

    /// Evaluates `value` against node `index`; with `collect` false it stops at the first failure and keeps no
    /// messages (a branch of `anyOf`, `oneOf`, `not`, `if`).
    func evaluate(_ index: Int, _ value: JSONValue, path: [String], collect: Bool) -> SchemaOutcome {
        let node = graph.nodes[index]
        if let boolean = node.boolean {
            var outcome = SchemaOutcome()
            if !boolean { outcome.fail(SchemaViolation(path: path, keyword: "false", message: "no value is allowed here")) }
            return outcome
        }
        guard depth < SchemaEvaluation.maximumDepth else {
            var outcome = SchemaOutcome()
            outcome.fail(SchemaViolation(path: path, keyword: "$ref", message: "the schema recurses deeper than \(SchemaEvaluation.maximumDepth) levels here"))
            return outcome
        }
        depth += 1
        let entered = scope.last != node.resource
        if entered { scope.append(node.resource) }
        defer {
            depth -= 1
            if entered { scope.removeLast() }
        }
        var outcome = SchemaOutcome()
        if let unresolved = node.unresolved {
            outcome.fail(SchemaViolation(path: path, keyword: "$ref", message: unresolved))
            return outcome
        }
        // OpenAPI 3.0's `nullable: true` lets null through the whole schema, its `oneOf` and `allOf` too (OpenAI's
        // `stop: {oneOf: […], nullable: true}`), as openapi-schema-validator reads it and schemathesis writes it
        // (`anyOf: [schema, {type: null}]`).
        if node.nullable, value == .null { return outcome }
        if let ref = node.ref {
            let target = evaluate(ref, value, path: path, collect: collect)
            merge(target, into: &outcome)
            if !outcome.valid, !collect { return outcome }
        }
        if let dynamic = node.dynamicRef {
            let target = dynamic.name.flatMap(dynamicTarget) ?? dynamic.target
            merge(evaluate(target, value, path: path, collect: collect), into: &outcome)
            if !outcome.valid, !collect { return outcome }
        }
        if node.validates {
            checkAnyType(node, value, path: path, into: &outcome)
            if !outcome.valid, !collect { return outcome }
            switch value {
            case .number(let number): checkNumber(node, number, path: path, into: &outcome)
            case .string(let text): checkString(node, text, path: path, into: &outcome)
            case .array(let items): checkArraySize(node, items, path: path, into: &outcome)
            case .object(let object): checkObjectSize(node, object, path: path, into: &outcome)
            default: break
            }
            if !outcome.valid, !collect { return outcome }
        }
        applyCombinations(node, value, path: path, collect: collect, into: &outcome)
        if !outcome.valid, !collect { return outcome }
        switch value {
        case .array(let items): applyToItems(node, items, path: path, collect: collect, into: &outcome)
        case .object(let object): applyToProperties(node, object, path: path, collect: collect, into: &outcome)
        default: break
        }
        return outcome
    }

    /// The outermost resource in scope with a `$dynamicAnchor` of that name.
    private func dynamicTarget(_ name: String) -> Int? {
        for resource in scope {
            if let node = graph.dynamicAnchors[resource + "#" + name] { return node }
        }
        return nil
    }

    /// Adds a subschema's verdict (and, when it passed, its annotations) to this one's.
    func merge(_ other: SchemaOutcome, into outcome: inout SchemaOutcome) {
        if !other.valid {
            outcome.valid = false
            appendViolations(other.violations, to: &outcome)
        } else {
            outcome.absorb(other)
        }
    }

    /// Adds the verdict of a subschema evaluated at another place in the value (a property, an item): its
    /// annotations are about that place, not this one, and are dropped.
    func mergeVerdict(_ other: SchemaOutcome, into outcome: inout SchemaOutcome) {
        guard !other.valid else { return }
        outcome.valid = false
        appendViolations(other.violations, to: &outcome)
    }

    func appendViolations(_ violations: [SchemaViolation], to outcome: inout SchemaOutcome) {
        let room = max(0, limit - outcome.violations.count)
        outcome.violations.append(contentsOf: violations.prefix(room))
    }

    func fail(_ outcome: inout SchemaOutcome, _ path: [String], _ keyword: String, _ message: String) {
        outcome.valid = false
        if outcome.violations.count < limit {
            outcome.violations.append(SchemaViolation(path: path, keyword: keyword, message: message))
        }
    }
}
