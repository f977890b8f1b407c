import UnderstudyJSON

extension SchemaEvaluation {
    func checkAnyType(_ node: SchemaNode, _ value: JSONValue, path: [String], into outcome: inout SchemaOutcome) {
        if let types = node.types, !(node.nullable && value == .null), !SchemaEvaluation.value(value, isOneOf: types) {
            let names = types.names
            fail(&outcome, path, "type", "must be \(names.count == 1 ? names[0] : "one of " + names.joined(separator: ", ")), not \(SchemaEvaluation.typeName(value))")
        }
        if let allowed = node.enumValues, !allowed.contains(where: { JSONEquality.equal($0, value) }) {
            let listed = allowed.prefix(12).map { String(decoding: JSONWriter.encode($0), as: UTF8.self) }.joined(separator: ", ")
            fail(&outcome, path, "enum", "must be equal to one of the allowed values: \(listed)\(allowed.count > 12 ? ", …" : "")")
        }
        if let constant = node.constValue, !JSONEquality.equal(constant, value) {
            fail(&outcome, path, "const", "must be equal to \(String(decoding: JSONWriter.encode(constant), as: UTF8.self))")
        }
    }

    static func value(_ value: JSONValue, isOneOf types: JSONTypes) -> Bool {
        switch value {
        case .null: types.contains(.null)
        case .bool: types.contains(.boolean)
        case .string: types.contains(.string)
        case .array: types.contains(.array)
        case .object: types.contains(.object)
        case .number(let number):
            types.contains(.number) || (types.contains(.integer) && number.double.isFinite && number.double.rounded() == number.double)
        }
    }

    /// The JSON type of a value, `integer` for a whole number, as a message names it.
    static func typeName(_ value: JSONValue) -> String {
        if case .number(let number) = value, number.double.rounded() == number.double { return "integer" }
        return value.typeName
    }

    func checkNumber(_ node: SchemaNode, _ number: JSONNumber, path: [String], into outcome: inout SchemaOutcome) {
        let value = number.double
        if let minimum = node.minimum, value < minimum { fail(&outcome, path, "minimum", "must be >= \(Self.text(minimum))") }
        if let maximum = node.maximum, value > maximum { fail(&outcome, path, "maximum", "must be <= \(Self.text(maximum))") }
        if let bound = node.exclusiveMinimum, value <= bound { fail(&outcome, path, "exclusiveMinimum", "must be > \(Self.text(bound))") }
        if let bound = node.exclusiveMaximum, value >= bound { fail(&outcome, path, "exclusiveMaximum", "must be < \(Self.text(bound))") }
        if let divisor = node.multipleOf, !Self.isMultiple(value, of: divisor) {
            fail(&outcome, path, "multipleOf", "must be a multiple of \(Self.text(divisor))")
        }
        // OpenAPI's integer and float formats are ranges, checked on any side that is OpenAPI's (a request, a
        // response); JSON Schema's own formats only when asked.
        if let format = node.format, assertsFormats || (side != nil && SchemaFormats.isRange(format)),
           let problem = SchemaFormats.problem(number, format: format) {
            fail(&outcome, path, "format", problem)
        }
    }

    /// `value` is a whole number of `divisor`s, allowing for the rounding of decimal fractions in binary.
    static func isMultiple(_ value: Double, of divisor: Double) -> Bool {
        let quotient = value / divisor
        guard quotient.isFinite else { return false }
        let nearest = quotient.rounded()
        return abs(quotient - nearest) <= 1e-9 * max(1, abs(nearest))
    }

    /// A bound as a message writes it: `3`, not `3.0`.
    static func text(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    func checkString(_ node: SchemaNode, _ text: String, path: [String], into outcome: inout SchemaOutcome) {
        if node.minLength != nil || node.maxLength != nil {
            // Lengths count code points: U+1F4A9 is one.
            let length = text.unicodeScalars.count
            if let minimum = node.minLength, length < minimum {
                fail(&outcome, path, "minLength", "must NOT have fewer than \(minimum) characters")
            }
            if let maximum = node.maxLength, length > maximum {
                fail(&outcome, path, "maxLength", "must NOT have more than \(maximum) characters")
            }
        }
        if let pattern = node.pattern, !pattern.matches(text) {
            fail(&outcome, path, "pattern", "must match pattern \"\(pattern.source)\"")
        }
        if assertsFormats, let format = node.format, let problem = SchemaFormats.problem(text, format: format) {
            fail(&outcome, path, "format", problem)
        }
    }

    func checkArraySize(_ node: SchemaNode, _ items: [JSONValue], path: [String], into outcome: inout SchemaOutcome) {
        if let minimum = node.minItems, items.count < minimum { fail(&outcome, path, "minItems", "must NOT have fewer than \(minimum) items") }
        if let maximum = node.maxItems, items.count > maximum { fail(&outcome, path, "maxItems", "must NOT have more than \(maximum) items") }
        if node.uniqueItems {
            outer: for first in items.indices {
                for second in items.indices where second > first && JSONEquality.equal(items[first], items[second]) {
                    fail(&outcome, path, "uniqueItems", "must NOT have duplicate items (items \(first) and \(second) are identical)")
                    break outer
                }
            }
        }
    }

    func checkObjectSize(_ node: SchemaNode, _ object: JSONObject, path: [String], into outcome: inout SchemaOutcome) {
        let count = object.entries.count
        if let minimum = node.minProperties, count < minimum {
            fail(&outcome, path, "minProperties", "must NOT have fewer than \(minimum) properties")
        }
        if let maximum = node.maxProperties, count > maximum {
            fail(&outcome, path, "maxProperties", "must NOT have more than \(maximum) properties")
        }
        for name in node.required where object[name] == nil && !exempt(name, in: node) {
            fail(&outcome, path, "required", "must have required property '\(name)'")
        }
        for (name, needed) in node.dependentRequired where object[name] != nil {
            for other in needed where object[other] == nil {
                fail(&outcome, path, "dependentRequired", "must have property '\(other)' when property '\(name)' is present")
            }
        }
    }

    func applyCombinations(_ node: SchemaNode, _ value: JSONValue, path: [String], collect: Bool,
                           into outcome: inout SchemaOutcome) {
        // OpenAPI 3.0's discriminator picks the branch of `oneOf` or `anyOf` by the value of its property, so
        // branches that overlap (one extends another through `allOf`) still tell the value's kind. A value that names
        // no branch (documents whose branches tell themselves apart by an enum instead) is read as JSON Schema reads
        // it. From 3.1 the discriminator is a hint that "MUST NOT change the validation outcome": `oneOf` is read as
        // JSON Schema reads it (openapi-schema-validator does the same), so a 3.1 body matching two branches fails.
        if node.dialect == .openAPI30, let discriminator = node.discriminator, !(node.oneOf.isEmpty && node.anyOf.isEmpty),
           case .object(let object) = value, let name = object[discriminator.propertyName]?.stringValue,
           let branch = discriminated(name, discriminator, among: node.oneOf.isEmpty ? node.anyOf : node.oneOf) {
            var picked = node
            picked.oneOf = []
            picked.anyOf = []
            picked.discriminator = nil
            picked.allOf.append(branch)
            return applyCombinations(picked, value, path: path, collect: collect, into: &outcome)
        }
        for schema in node.allOf {
            merge(evaluate(schema, value, path: path, collect: collect), into: &outcome)
            if !outcome.valid, !collect { return }
        }
        if !node.anyOf.isEmpty {
            var matched = false
            var failures: [SchemaViolation] = []
            for schema in node.anyOf {
                let branch = evaluate(schema, value, path: path, collect: collect && !matched)
                if branch.valid {
                    matched = true
                    outcome.absorb(branch)
                    // Every passing branch's annotations count only when something reads them.
                    if !graph.usesUnevaluated { break }
                } else if failures.isEmpty {
                    failures = branch.violations
                }
            }
            if !matched {
                fail(&outcome, path, "anyOf", "must match a schema in anyOf")
                appendViolations(failures, to: &outcome)
            }
        }
        if !node.oneOf.isEmpty {
            var passing: [Int] = []
            var passed = SchemaOutcome()
            var failures: [SchemaViolation] = []
            for (offset, schema) in node.oneOf.enumerated() {
                let branch = evaluate(schema, value, path: path, collect: collect && passing.isEmpty && failures.isEmpty)
                if branch.valid {
                    passing.append(offset)
                    passed = branch
                    if passing.count > 1 { break }
                } else if failures.isEmpty {
                    failures = branch.violations
                }
            }
            switch passing.count {
            case 1: outcome.absorb(passed)
            case 0:
                fail(&outcome, path, "oneOf", "must match exactly one schema in oneOf")
                appendViolations(failures, to: &outcome)
            default:
                fail(&outcome, path, "oneOf", "must match exactly one schema in oneOf (it matches \(passing[0]) and \(passing[1]))")
            }
        }
        if let negated = node.not, evaluate(negated, value, path: path, collect: false).valid {
            fail(&outcome, path, "not", "must NOT be valid against the schema in 'not'")
        }
        if let (condition, then, otherwise) = node.ifThenElse {
            let test = evaluate(condition, value, path: path, collect: false)
            if test.valid {
                outcome.absorb(test)
                if let then { merge(evaluate(then, value, path: path, collect: collect), into: &outcome) }
            } else if let otherwise {
                merge(evaluate(otherwise, value, path: path, collect: collect), into: &outcome)
            }
        }
    }

    func applyToItems(_ node: SchemaNode, _ items: [JSONValue], path: [String], collect: Bool,
                      into outcome: inout SchemaOutcome) {
        for (offset, schema) in node.prefixItems.enumerated() where offset < items.count {
            mergeVerdict(evaluate(schema, items[offset], path: path + [String(offset)], collect: collect), into: &outcome)
            if !outcome.valid, !collect { return }
        }
        if !node.prefixItems.isEmpty { outcome.items = max(outcome.items, min(node.prefixItems.count, items.count)) }
        if let schema = node.items {
            for offset in node.prefixItems.count..<max(node.prefixItems.count, items.count) {
                mergeVerdict(evaluate(schema, items[offset], path: path + [String(offset)], collect: collect), into: &outcome)
                if !outcome.valid, !collect { return }
            }
            outcome.allItems = true
        }
        if let schema = node.contains {
            var matches: [Int] = []
            for (offset, item) in items.enumerated() where evaluate(schema, item, path: path + [String(offset)], collect: false).valid {
                matches.append(offset)
            }
            let minimum = node.minContains ?? 1
            if matches.count < minimum {
                fail(&outcome, path, node.minContains == nil ? "contains" : "minContains",
                     minimum == 1 ? "must contain at least 1 valid item" : "must contain at least \(minimum) valid items")
            }
            if let maximum = node.maxContains, matches.count > maximum {
                fail(&outcome, path, "maxContains", "must contain at most \(maximum) valid items")
            }
            outcome.itemIndexes.formUnion(matches)
        }
        if let schema = node.unevaluatedItems, !outcome.allItems {
            for offset in outcome.items..<max(outcome.items, items.count) where !outcome.itemIndexes.contains(offset) {
                mergeVerdict(evaluate(schema, items[offset], path: path + [String(offset)], collect: collect), into: &outcome)
                if !outcome.valid, !collect { return }
            }
            outcome.allItems = true
        }
    }

    func applyToProperties(_ node: SchemaNode, _ object: JSONObject, path: [String], collect: Bool,
                           into outcome: inout SchemaOutcome) {
        var matched = Set<String>()
        for (name, schema) in node.properties {
            guard let value = object[name] else { continue }
            matched.insert(name)
            mergeVerdict(evaluate(schema, value, path: path + [name], collect: collect), into: &outcome)
            if !outcome.valid, !collect { return }
        }
        for (pattern, schema) in node.patternProperties {
            for entry in object.entries where pattern.matches(entry.key) {
                matched.insert(entry.key)
                mergeVerdict(evaluate(schema, entry.value, path: path + [entry.key], collect: collect), into: &outcome)
                if !outcome.valid, !collect { return }
            }
        }
        if let schema = node.additionalProperties {
            for entry in object.entries where !matched.contains(entry.key) {
                if graph.nodes[schema].boolean == false {
                    fail(&outcome, path + [entry.key], "additionalProperties", "must NOT have additional property '\(entry.key)'")
                } else {
                    mergeVerdict(evaluate(schema, entry.value, path: path + [entry.key], collect: collect), into: &outcome)
                }
                if !outcome.valid, !collect { return }
            }
            outcome.allProperties = true
        }
        outcome.properties.formUnion(matched)
        if let schema = node.propertyNames {
            for entry in object.entries {
                let name = evaluate(schema, .string(entry.key), path: path + [entry.key], collect: false)
                if !name.valid { fail(&outcome, path + [entry.key], "propertyNames", "property name '\(entry.key)' is invalid") }
            }
        }
        for (name, schema) in node.dependentSchemas where object[name] != nil {
            merge(evaluate(schema, .object(object), path: path, collect: collect), into: &outcome)
            if !outcome.valid, !collect { return }
        }
        if let schema = node.unevaluatedProperties, !outcome.allProperties {
            for entry in object.entries where !outcome.properties.contains(entry.key) {
                if graph.nodes[schema].boolean == false {
                    fail(&outcome, path + [entry.key], "unevaluatedProperties", "must NOT have unevaluated property '\(entry.key)'")
                } else {
                    mergeVerdict(evaluate(schema, entry.value, path: path + [entry.key], collect: collect), into: &outcome)
                }
                if !outcome.valid, !collect { return }
            }
            outcome.allProperties = true
        }
    }
}

extension SchemaEvaluation {
    /// The branch a discriminator's value names: by its mapping, else by the name of a schema under
    /// `components/schemas`.
    func discriminated(_ name: String, _ discriminator: SchemaNode.Discriminator, among branches: [Int]) -> Int? {
        if let mapped = discriminator.mapping.first(where: { $0.value == name }) {
            let target = resolvedReference(mapped.schema)
            return branches.first { resolvedReference($0) == target } ?? mapped.schema
        }
        return branches.first { graph.nodes[resolvedReference($0)].location.componentName == name }
    }

    /// The node a chain of references with nothing beside them leads to.
    func resolvedReference(_ index: Int) -> Int {
        var current = index
        for _ in 0..<32 {
            let node = graph.nodes[current]
            guard let ref = node.ref, node.types == nil, node.properties.isEmpty, node.allOf.isEmpty,
                  node.oneOf.isEmpty, node.anyOf.isEmpty else { break }
            current = ref
        }
        return current
    }
}

extension SchemaEvaluation {
    /// Whether a missing required property is one this side of an exchange does not carry (`readOnly` in a request,
    /// `writeOnly` in a response).
    func exempt(_ name: String, in node: SchemaNode) -> Bool {
        guard let side, let schema = node.properties.first(where: { $0.name == name })?.schema else { return false }
        let property = graph.nodes[schema]
        let target = graph.nodes[resolvedReference(schema)]
        switch side {
        case .request: return property.readOnly || target.readOnly
        case .response: return property.writeOnly || target.writeOnly
        }
    }
}
