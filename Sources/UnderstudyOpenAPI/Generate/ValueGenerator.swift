import Foundation
import UnderstudyJSON

/// Makes values from schemas: the static value a document implies (its examples, defaults, enums, and plain values
/// by type and format, as Prism's static mode does), or seeded data that honours every keyword (dynamic). Recursion
/// and size are bounded. A generated value is checked against its schema and made again, from another draw, when it
/// does not hold (`oneOf`'s exclusivity, `not`, a pattern the sampler could not honour).
package struct ValueGenerator: Sendable {
    package enum Mode: Sendable, Equatable {
        /// The document's own values where it has them, else plain ones by type: the same every time.
        case `static`
        /// Seeded data, different per seed, valid against the schema.
        case dynamic
    }

    /// Which side of an exchange: a response leaves out `writeOnly` properties, a request `readOnly` ones.
    package enum Direction: Sendable {
        case response, request
    }

    package let graph: SchemaGraph
    package var mode: Mode
    package var direction: Direction
    /// How deep objects and arrays nest; past it, optional members are left out and arrays kept to their minimum.
    package var maximumDepth = 6
    /// How many values one body may hold.
    package var maximumNodes = 2_000
    private let validator: SchemaValidator

    package init(graph: SchemaGraph, mode: Mode, direction: Direction = .response) {
        self.graph = graph
        self.mode = mode
        self.direction = direction
        // What is made must hold for the strictest reader: formats are checked too (a document's example of a URI
        // with spaces in it is not sent as one).
        var validator = SchemaValidator(graph: graph)
        validator.assertsFormats = true
        self.validator = validator
    }

    /// A value for the schema `index`, drawn from `random` (unused in static mode).
    package func value(for index: Int, random: SeededRandom) -> JSONValue {
        made(for: index, random: random).value
    }

    /// A value for the schema `index`, and whether it was drawn from `random`: a static value that does not hold
    /// is drawn instead, so it then depends on the seed.
    package func made(for index: Int, random: SeededRandom) -> (value: JSONValue, drawn: Bool) {
        var attempt = random
        var first: JSONValue?
        for round in 0..<4 {
            var run = GenerationRun(generator: self, random: attempt)
            let value = run.value(index, depth: 0, name: "")
            if validator.isValid(value, against: index) { return (value, mode == .dynamic || round > 0) }
            first = first ?? value
            // Static mode has nothing else to draw: the next rounds draw as dynamic mode does.
            attempt = random.derived("attempt \(round)")
        }
        if mode == .static {
            var dynamic = self
            dynamic.mode = .dynamic
            for round in 0..<4 {
                var run = GenerationRun(generator: dynamic, random: random.derived("dynamic \(round)"))
                let value = run.value(index, depth: 0, name: "")
                if validator.isValid(value, against: index) { return (value, true) }
            }
        }
        return (first ?? .null, true)
    }

    /// Whether a generated value holds: for a caller that generated one part at a time.
    func isValid(_ value: JSONValue, against index: Int) -> Bool {
        validator.isValid(value, against: index)
    }
}

/// One value's making: the draws and the budget.
struct GenerationRun {
    let generator: ValueGenerator
    var random: SeededRandom
    var nodes = 0
    var graph: SchemaGraph { generator.graph }
    var isStatic: Bool { generator.mode == .static }

    init(generator: ValueGenerator, random: SeededRandom) {
        self.generator = generator
        self.random = random
    }

    mutating func value(_ index: Int, depth: Int, name: String) -> JSONValue {
        nodes += 1
        let node = graph.nodes[index]
        // A schema that requires itself all the way down (`required: [child]`, `child: {$ref: #}`) has no finite
        // value: the recursion stops, and the value that comes out fails validation and is drawn again or reported.
        guard depth < 4 * generator.maximumDepth else { return .null }
        if let boolean = node.boolean { return boolean ? .string(isStatic ? "string" : word()) : .null }
        if let ref = node.ref, !hasOwnShape(node) { return value(ref, depth: depth, name: name) }
        if let dynamic = node.dynamicRef, !hasOwnShape(node) { return value(dynamic.target, depth: depth + 1, name: name) }
        if let constant = node.constValue { return constant }
        // A schema's example is used only where it holds: DigitalOcean's logsink `config` gives as its example an
        // object wrapped in another `config`, which no branch of its anyOf takes.
        if isStatic {
            if let example = node.examples.first, generator.isValid(example, against: index) { return example }
            if let fallback = node.defaultValue { return fallback }
            if let first = node.enumValues?.first { return first }
        } else {
            if let values = node.enumValues, !values.isEmpty { return random.pick(values) }
            if let example = node.examples.first, random.chance(0.3), generator.isValid(example, against: index) { return example }
        }
        if !node.allOf.isEmpty || node.ref != nil { return merged(node, index, depth: depth, name: name) }
        let branches = node.oneOf.isEmpty ? node.anyOf : node.oneOf
        if !branches.isEmpty {
            // An object that describes its properties and asks for one of several shapes (`anyOf` of required
            // lists): the properties it describes, with the branch's demands.
            if !node.properties.isEmpty || node.types == .object {
                let offset = isStatic ? 0 : random.int(in: 0...(branches.count - 1))
                var view = ObjectView()
                view.take(node)
                view.collect(branches[offset], in: graph)
                var made = avoidingNot(node, object(view, depth: depth), optional: view)
                // `oneOf` of required lists: the members only the other branches require are left out, so the
                // value matches its branch alone.
                if !node.oneOf.isEmpty, case .object(var object) = made {
                    let others = Set(branches.enumerated().filter { $0.offset != offset }.flatMap { graph.nodes[$0.element].required })
                    object.entries.removeAll { others.contains($0.key) && !view.required.contains($0.key) }
                    made = .object(object)
                }
                return made
            }
            return branch(node, branches, depth: depth, name: name)
        }
        return avoidingNot(node, typed(node, types: types(of: node), depth: depth, name: name), optional: nil)
    }

    /// An object that `not` forbids (`not: {required: [a, b]}`: not both) loses optional members, last first,
    /// until it no longer matches.
    private func avoidingNot(_ node: SchemaNode, _ made: JSONValue, optional view: ObjectView?) -> JSONValue {
        guard let negated = node.not, case .object(var object) = made else { return made }
        let required = view?.required ?? node.required
        var index = object.entries.count - 1
        while index >= 0, generator.isValid(.object(object), against: negated) {
            if !required.contains(object.entries[index].key) { object.entries.remove(at: index) }
            index -= 1
        }
        return .object(object)
    }

    /// Whether a node has keywords of its own beside a reference (2020-12 allows siblings of `$ref`).
    private func hasOwnShape(_ node: SchemaNode) -> Bool {
        node.types != nil || !node.properties.isEmpty || !node.allOf.isEmpty || !node.oneOf.isEmpty
            || !node.anyOf.isEmpty || node.items != nil
    }

    /// The types a node allows, or the one its keywords imply.
    func types(of node: SchemaNode) -> JSONTypes {
        if let types = node.types { return types }
        if !node.properties.isEmpty || node.additionalProperties != nil || !node.required.isEmpty { return .object }
        if node.items != nil || !node.prefixItems.isEmpty { return .array }
        if node.minLength != nil || node.maxLength != nil || node.pattern != nil || node.format != nil { return .string }
        if node.minimum != nil || node.maximum != nil || node.multipleOf != nil { return .number }
        return .string
    }

    /// A value of one of `types` (null only when nothing else is allowed).
    mutating func typed(_ node: SchemaNode, types: JSONTypes, depth: Int, name: String) -> JSONValue {
        var choices = [JSONTypes.object, .array, .string, .integer, .number, .boolean].filter { types.contains($0) }
        if choices.isEmpty { choices = types.contains(.null) ? [.null] : [.string] }
        let type = isStatic ? choices[0] : random.pick(choices)
        switch type {
        case .object: return object(node, depth: depth)
        case .array: return array(node, depth: depth, name: name)
        case .integer: return .number(integer(node))
        case .number: return .number(number(node))
        case .boolean: return .bool(isStatic ? true : random.chance(0.5))
        case .null: return .null
        default: return .string(string(node, name: name))
        }
    }

    /// `allOf` (and a `$ref` with siblings): an object made from every part's properties and required names at
    /// once (a part may require what another describes); anything else from the first part with a type.
    private mutating func merged(_ node: SchemaNode, _ index: Int, depth: Int, name: String) -> JSONValue {
        var view = ObjectView()
        view.collect(index, in: graph)
        if view.isObject {
            return object(view, depth: depth)
        }
        var parts = node.allOf
        if let ref = node.ref { parts.insert(ref, at: 0) }
        let typed = parts.first { graph.nodes[$0].types != nil } ?? parts.first
        if let typed { return value(typed, depth: depth, name: name) }
        var own = node
        own.allOf = []
        own.ref = nil
        return self.typed(own, types: types(of: own), depth: depth, name: name)
    }

    /// One branch of `oneOf` or `anyOf`: the first (static) or a drawn one, named by the discriminator when there is
    /// one.
    private mutating func branch(_ node: SchemaNode, _ branches: [Int], depth: Int, name: String) -> JSONValue {
        let offset = isStatic ? 0 : random.int(in: 0...(branches.count - 1))
        // (A 3.0 discriminator picks the branch that validates: there the others may hold too.)
        let picksByDiscriminator = node.dialect == .openAPI30 && node.discriminator != nil
        guard !node.oneOf.isEmpty, branches.count > 1, !picksByDiscriminator else {
            return branch(node, branches[offset], depth: depth, name: name)
        }
        // `oneOf` wants exactly one branch to hold: a value that also holds for another (OpenAI's diarized
        // transcription is a plain one too, whose only requirement is `text`) is made again from the next branch.
        var first: JSONValue?
        for step in 0..<min(branches.count, 4) {
            let made = branch(node, branches[(offset + step) % branches.count], depth: depth, name: name)
            let generator = self.generator
            if branches.lazy.filter({ generator.isValid(made, against: $0) }).prefix(2).count == 1 { return made }
            first = first ?? made
        }
        return first ?? .null
    }

    private mutating func branch(_ node: SchemaNode, _ chosen: Int, depth: Int, name: String) -> JSONValue {
        var made = value(chosen, depth: depth, name: name)
        // The discriminator names the branch: by the mapping, else by the schema's name. A branch that sets the
        // property itself (an enum of one) keeps its own value.
        if let discriminator = node.discriminator, case .object(var object) = made {
            let target = resolved(chosen)
            let mapped = discriminator.mapping.first(where: { resolved($0.schema) == target })?.value
                ?? (object[discriminator.propertyName] == nil ? schemaName(graph.nodes[target]) : nil)
            if let mapped {
                object[discriminator.propertyName] = .string(mapped)
                // A name the branch itself refuses (Spotify's `type: track` on TrackObject, without a mapping) is
                // not set: the branch's own value stands, and the name is left to whoever reads it.
                if generator.isValid(.object(object), against: chosen) { made = .object(object) }
            }
        }
        return made
    }

    /// The node a chain of bare references leads to.
    func resolved(_ index: Int) -> Int {
        var current = index
        var steps = 0
        while let ref = graph.nodes[current].ref, !hasOwnShape(graph.nodes[current]), steps < 32 {
            current = ref
            steps += 1
        }
        return current
    }

    /// The name a schema has under `components/schemas`, which a discriminator without a mapping uses.
    private func schemaName(_ node: SchemaNode) -> String? {
        node.location.componentName
    }

    /// A word of seeded filler.
    mutating func word() -> String {
        random.pick(GenerationRun.words)
    }

    static let words = ["alpha", "bravo", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
                        "kestrel", "lumen", "meadow", "nimbus", "orchid", "pebble", "quartz", "ripple", "sierra",
                        "timber", "umber", "velvet", "willow", "xenon", "yarrow", "zephyr"]
}
