import UnderstudyJSON

extension GenerationRun {
    /// An object: its required properties always; its optional ones all (static) or most (dynamic), until the depth
    /// or the budget says stop; `readOnly` or `writeOnly` ones left out on the side that does not carry them.
    mutating func object(_ node: SchemaNode, depth: Int) -> JSONValue {
        var view = ObjectView()
        view.take(node)
        return object(view, depth: depth)
    }

    /// An object as a view of one schema, or of every part of an `allOf`, describes it.
    mutating func object(_ node: ObjectView, depth: Int) -> JSONValue {
        var entries: [JSONObject.Entry] = []
        let deep = depth >= generator.maximumDepth || nodes >= generator.maximumNodes
        for (name, schemas) in node.properties {
            let required = node.required.contains(name)
            if !required, schemas.contains(where: { skips(graph.nodes[$0]) }) { continue }
            if !required, deep || (!isStatic && !random.chance(0.8)) { continue }
            entries.append(JSONObject.Entry(key: name, value: property(name, schemas, depth: depth + 1)))
        }
        // Required names no property describes get a value of whatever `additionalProperties` allows.

        for name in node.required where !entries.contains(where: { $0.key == name }) {
            let schema = node.patternProperties.first(where: { $0.pattern.matches(name) })?.schema ?? node.additionalProperties
            entries.append(JSONObject.Entry(key: name, value: schema.map { value($0, depth: depth + 1, name: name) } ?? .string(name)))
        }
        let minimum = node.minProperties ?? 0
        var counter = 1
        while entries.count < minimum, counter < 100 {
            let key: String
            let schema: Int?
            if let pattern = node.patternProperties.first {
                var sampler = RegexSampler(random: random.derived("key \(counter)"))
                key = sampler.sample(pattern.pattern.source) ?? "property\(counter)"
                schema = pattern.schema
            } else {
                key = "property\(counter)"
                schema = node.additionalProperties
            }
            counter += 1
            if entries.contains(where: { $0.key == key }) { continue }
            entries.append(JSONObject.Entry(key: key, value: schema.map { value($0, depth: depth + 1, name: key) } ?? .string(key)))
        }
        if let maximum = node.maxProperties, entries.count > maximum {
            entries = Array(entries.prefix(maximum))
        }
        return .object(JSONObject(entries))
    }

    /// A property's value, when several schemas describe it (parts of an `allOf`): made from the last (a later part
    /// refines an earlier one) and kept when every one holds, else from the next.
    private mutating func property(_ name: String, _ schemas: [Int], depth: Int) -> JSONValue {
        var first: JSONValue?
        for schema in schemas.reversed() {
            let made = value(schema, depth: depth, name: name)
            if schemas.count == 1 || schemas.allSatisfy({ generator.isValid(made, against: $0) }) { return made }
            first = first ?? made
        }
        return first ?? .null
    }

    /// Whether a property is left out on this side of the exchange.
    private func skips(_ node: SchemaNode) -> Bool {
        let resolved = node.ref.map { graph.nodes[$0] } ?? node
        switch generator.direction {
        case .response: return node.writeOnly || resolved.writeOnly
        case .request: return node.readOnly || resolved.readOnly
        }
    }

    /// An array: its `prefixItems`, then items up to its minimum (one, statically), never past its maximum.
    mutating func array(_ node: SchemaNode, depth: Int, name: String) -> JSONValue {
        var items: [JSONValue] = []
        for schema in node.prefixItems { items.append(value(schema, depth: depth + 1, name: name)) }
        let minimum = node.minItems ?? 0
        let maximum = node.maxItems ?? Int.max
        let deep = depth >= generator.maximumDepth || nodes >= generator.maximumNodes
        // Past the depth (or the budget) an array has only the items it must: a schema that recurses through an
        // array (a tree's children) ends there.
        var count = deep ? minimum : max(minimum, isStatic ? min(1, maximum) : random.int(in: 1...3))
        count = min(count, maximum, max(minimum, 20))
        if let contains = node.contains {
            for _ in 0..<max(1, node.minContains ?? 1) where items.count < maximum {
                items.append(value(contains, depth: depth + 1, name: name))
            }
        }
        var attempts = 0
        while items.count < count, attempts < count * 4 + 4 {
            attempts += 1
            let item: JSONValue = node.items.map { value($0, depth: depth + 1, name: name) }
                ?? .string(isStatic ? "string" : word())
            if node.uniqueItems, items.contains(where: { JSONEquality.equal($0, item) }) {
                random = random.derived("unique \(attempts)")
                continue
            }
            items.append(item)
        }
        return .array(items)
    }

    /// A whole number within the bounds and a multiple of `multipleOf`: the lowest allowed (static) or drawn.
    mutating func integer(_ node: SchemaNode) -> JSONNumber {
        // Bounds are kept within the integers a JSON number holds exactly (±2^53), whatever the document says.
        var low = node.minimum.map { Self.whole($0.rounded(.up)) }
        var high = node.maximum.map { Self.whole($0.rounded(.down)) }
        if let bound = node.exclusiveMinimum { low = max(low ?? Int.min, Self.whole(bound.rounded(.down)) + 1) }
        if let bound = node.exclusiveMaximum { high = min(high ?? Int.max, Self.whole(bound.rounded(.up)) - 1) }
        if node.format == "int32" {
            low = max(low ?? Int(Int32.min), Int(Int32.min))
            high = min(high ?? Int(Int32.max), Int(Int32.max))
        }
        let lower = low ?? (high.map { min(0, $0) } ?? 0)
        let upper = max(lower, high ?? max(lower, 0) + 1_000)
        var chosen = isStatic ? lower : random.int(in: lower...upper)
        if let step = node.multipleOf, step >= 1, step.rounded() == step, step < 1e15 {
            let multiple = Int(step)
            chosen = (chosen / multiple) * multiple
            if chosen < lower { chosen += multiple }
        }
        return JSONNumber(chosen)
    }

    /// A whole double as an `Int`, kept within ±2^53.
    private static func whole(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? JSONNumber.largestExactInteger : -JSONNumber.largestExactInteger }
        return Int(min(max(value, -9_007_199_254_740_991), 9_007_199_254_740_991))
    }

    /// A number within the bounds: the lowest allowed (static) or drawn, to two decimal places.
    mutating func number(_ node: SchemaNode) -> JSONNumber {
        var low = node.minimum ?? node.exclusiveMinimum.map { $0 + 0.01 }
        var high = node.maximum ?? node.exclusiveMaximum.map { $0 - 0.01 }
        if let value = low, let exclusive = node.exclusiveMinimum, value <= exclusive { low = exclusive + 0.01 }
        if let value = high, let exclusive = node.exclusiveMaximum, value >= exclusive { high = exclusive - 0.01 }
        let lower = low ?? min(0, high ?? 0)
        let upper = max(lower, high ?? lower + 1_000)
        if let step = node.multipleOf {
            let first = (lower / step).rounded(.up)
            let last = max(first, (upper / step).rounded(.down))
            let span = last - first
            let count = isStatic || !span.isFinite ? 0 : random.int(in: 0...Int(min(max(span, 0), 1_000)))
            return JSONNumber((first + Double(count)) * step)
        }
        if isStatic { return JSONNumber(lower) }
        let drawn = lower + (upper - lower) * random.fraction()
        return JSONNumber(((drawn * 100).rounded(.down) / 100).clamped(lower, upper))
    }
}

private extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double {
        Swift.min(Swift.max(self, low), high)
    }
}

/// What an object must be, gathered from a schema and, through `$ref` and `allOf`, every part of it: each
/// property's schemas, the required names, and what the other members may be.
struct ObjectView {
    var properties: [(name: String, schemas: [Int])] = []
    var required: [String] = []
    var additionalProperties: Int?
    var patternProperties: [(pattern: SchemaPattern, schema: Int)] = []
    var minProperties: Int?
    var maxProperties: Int?
    var isObject = false
    private var seen: Set<Int> = []

    mutating func take(_ node: SchemaNode) {
        for (name, schema) in node.properties {
            if let index = properties.firstIndex(where: { $0.name == name }) {
                properties[index].schemas.append(schema)
            } else {
                properties.append((name, [schema]))
            }
        }
        for name in node.required where !required.contains(name) { required.append(name) }
        additionalProperties = node.additionalProperties ?? additionalProperties
        patternProperties += node.patternProperties
        minProperties = max(minProperties ?? 0, node.minProperties ?? 0)
        maxProperties = [maxProperties, node.maxProperties].compactMap { $0 }.min()
        if node.types?.contains(.object) == true || !node.properties.isEmpty || !node.required.isEmpty { isObject = true }
    }

    /// Gathers the node at `index` and, through references and `allOf`, its parts.
    mutating func collect(_ index: Int, in graph: SchemaGraph) {
        guard seen.insert(index).inserted else { return }
        let node = graph.nodes[index]
        if let ref = node.ref { collect(ref, in: graph) }
        for part in node.allOf { collect(part, in: graph) }
        take(node)
    }
}
