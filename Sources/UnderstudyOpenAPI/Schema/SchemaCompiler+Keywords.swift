import UnderstudyJSON

extension SchemaCompiler {
    /// Reads an object schema's keywords into `node`, compiling its subschemas.
    func fill(_ node: inout SchemaNode, from object: JSONObject, at location: SchemaLocation, base: String,
              dialect: SchemaDialect) {
        var base = base
        var dialect = dialect
        if let declared = object["$schema"]?.stringValue {
            if let named = SchemaDialect.named(declared) {
                dialect = named
                node.dialect = named
            } else {
                node.validates = metaSchemaValidates(declared)
            }
        }
        if let id = dialect.idKeyword.flatMap({ object[$0]?.stringValue }) {
            base = URIReference.split(URIReference.resolve(id, against: base)).base
            node.resource = base
        }
        if !node.validates { withoutValidation.insert(node.resource) }
        let resource = node.resource
        // A subschema is read from its parent's value, not found again from the document's root.
        func sub(_ tokens: String...) -> Int {
            var value: JSONValue? = .object(object)
            for token in tokens { value = value.flatMap { JSONPointer.member(token, of: $0) } }
            return compile(SchemaLocation(document: location.document, pointer: location.pointer + tokens), base: base,
                           resource: resource, dialect: dialect, value: value)
        }
        node.title = object["title"]?.stringValue
        if let text = object["$ref"]?.stringValue {
            node.ref = reference(text, base: base, dialect: dialect, at: location, into: &node)
            // OpenAPI 3.0 (and draft 4): a `$ref` stands for the whole schema; its siblings are ignored.
            if dialect == .openAPI30 { return }
        }
        if dialect == .draft2020, let text = object["$dynamicRef"]?.stringValue {
            if let target = resolve(text, base: base, dialect: dialect) {
                let fragment = URIReference.split(URIReference.resolve(text, against: base)).fragment
                // Dynamic only when it names an anchor and the schema it first resolves to has that dynamic anchor.
                var name: String?
                if let fragment, !fragment.isEmpty, !fragment.hasPrefix("/"),
                   case .object(let targetObject)? = registry.value(at: target),
                   targetObject["$dynamicAnchor"]?.stringValue == fragment {
                    name = fragment
                }
                node.dynamicRef = (name, compile(target))
            } else {
                node.unresolved = "the $dynamicRef '\(text)' resolves to nothing"
                problem(location.appending("$dynamicRef"), "unresolved $dynamicRef '\(text)'")
            }
        }
        readValidation(&node, object, at: location, dialect: dialect)
        readApplicators(&node, object, at: location, dialect: dialect, sub: sub)
        readAnnotations(&node, object, dialect: dialect, sub: sub)
    }

    /// The node a reference resolves to; an unresolvable one is a problem, and the node fails whatever it meets.
    func reference(_ text: String, base: String, dialect: SchemaDialect, at location: SchemaLocation,
                   into node: inout SchemaNode) -> Int? {
        guard let target = resolve(text, base: base, dialect: dialect) else {
            node.unresolved = "the $ref '\(text)' resolves to nothing"
            problem(location.appending("$ref"), "unresolved $ref '\(text)'")
            return nil
        }
        return compile(target)
    }

    /// Where a reference leads: a resource's `$id`, a document (fetched the first time), a JSON pointer into
    /// either, or an anchor.
    func resolve(_ reference: String, base: String, dialect: SchemaDialect) -> SchemaLocation? {
        // A document names the same few hundred schemas thousands of times: a reference found once is found again.
        let key = ResolvedKey(reference: reference, base: base, dialect: dialect)
        if let known = resolved[key] { return known }
        let found = resolveAfresh(reference, base: base, dialect: dialect)
        if let found { resolved[key] = found }
        return found
    }

    private func resolveAfresh(_ reference: String, base: String, dialect: SchemaDialect) -> SchemaLocation? {
        let (uri, fragment) = URIReference.split(registry.resolve(reference, against: base))
        let root: SchemaLocation
        if let resource = registry.resources[uri] {
            root = resource
        } else if registry.document(uri) != nil {
            root = SchemaLocation(document: uri)
            registry.index(root, base: uri, dialect: dialect)
        } else {
            return nil
        }
        guard let fragment, !fragment.isEmpty else { return root }
        if fragment.hasPrefix("/") {
            guard let tokens = JSONPointer.tokens(fragment) else { return nil }
            let target = SchemaLocation(document: root.document, pointer: root.pointer + tokens)
            return registry.value(at: target) == nil ? nil : target
        }
        return registry.anchors[uri + "#" + fragment]
    }

    /// Whether a custom meta-schema keeps the validation vocabulary (its `$vocabulary` names it); one that cannot
    /// be read does.
    private func metaSchemaValidates(_ uri: String) -> Bool {
        guard case .object(let meta)? = registry.document(URIReference.split(uri).base),
              case .object(let vocabularies)? = meta["$vocabulary"] else { return true }
        return vocabularies["https://json-schema.org/draft/2020-12/vocab/validation"] != nil
    }

    private func readValidation(_ node: inout SchemaNode, _ object: JSONObject, at location: SchemaLocation,
                                dialect: SchemaDialect) {
        func number(_ keyword: String) -> Double? {
            guard let value = object[keyword] else { return nil }
            guard let number = value.doubleValue else {
                problem(location.appending(keyword), "'\(keyword)' must be a number")
                return nil
            }
            return number
        }
        func count(_ keyword: String) -> Int? {
            guard let value = object[keyword] else { return nil }
            guard let number = value.doubleValue, number >= 0, number.rounded() == number, number < 1e15 else {
                problem(location.appending(keyword), "'\(keyword)' must be a non-negative integer")
                return nil
            }
            return Int(number)
        }
        switch object["type"] {
        case .string(let name)?:
            if let type = JSONTypes.named(name) { node.types = type } else {
                problem(location.appending("type"), "unknown type '\(name)'")
            }
        case .array(let names)?:
            var types = JSONTypes()
            for name in names {
                guard let text = name.stringValue, let type = JSONTypes.named(text) else {
                    problem(location.appending("type"), "unknown type \(String(decoding: JSONWriter.encode(name), as: UTF8.self))")
                    continue
                }
                types.insert(type)
            }
            node.types = types
        case nil: break
        default: problem(location.appending("type"), "'type' must be a string or an array of strings")
        }
        if dialect == .openAPI30 || readsNullable, object["nullable"] == .bool(true) { node.nullable = true }
        if let values = object["enum"] {
            if case .array(let items) = values { node.enumValues = items } else {
                problem(location.appending("enum"), "'enum' must be an array")
            }
        }
        if let value = object["const"], dialect == .draft2020 { node.constValue = value }
        node.multipleOf = number("multipleOf")
        if let multiple = node.multipleOf, multiple <= 0 {
            problem(location.appending("multipleOf"), "'multipleOf' must be greater than 0")
            node.multipleOf = nil
        }
        node.minimum = number("minimum")
        node.maximum = number("maximum")
        switch (dialect, object["exclusiveMinimum"], object["exclusiveMaximum"]) {
        case (.openAPI30, let low, let high):
            // Draft 4's booleans make `minimum` and `maximum` exclusive.
            if low == .bool(true) { node.exclusiveMinimum = node.minimum; node.minimum = nil }
            if high == .bool(true) { node.exclusiveMaximum = node.maximum; node.maximum = nil }
        case (.draft2020, let low, let high):
            // 2020-12's bounds are numbers. A document written for 3.0 and labelled 3.1 (OpenAI's) still has the
            // booleans: they are read as 3.0 reads them, and said.
            if case .bool(let exclusive)? = low {
                if exclusive { node.exclusiveMinimum = node.minimum; node.minimum = nil }
                tolerated(location.appending("exclusiveMinimum"), "exclusiveMinimum")
            } else {
                node.exclusiveMinimum = number("exclusiveMinimum")
            }
            if case .bool(let exclusive)? = high {
                if exclusive { node.exclusiveMaximum = node.maximum; node.maximum = nil }
                tolerated(location.appending("exclusiveMaximum"), "exclusiveMaximum")
            } else {
                node.exclusiveMaximum = number("exclusiveMaximum")
            }
        }
        node.minLength = count("minLength")
        node.maxLength = count("maxLength")
        if let pattern = object["pattern"] {
            if let text = pattern.stringValue {
                node.pattern = SchemaPattern(text)
                if node.pattern?.isValid == false { problem(location.appending("pattern"), "'pattern' is not a regular expression: \(text)") }
            } else {
                problem(location.appending("pattern"), "'pattern' must be a string")
            }
        }
        node.format = object["format"]?.stringValue
        node.minItems = count("minItems")
        node.maxItems = count("maxItems")
        node.uniqueItems = object["uniqueItems"] == .bool(true)
        node.minContains = count("minContains")
        node.maxContains = count("maxContains")
        node.minProperties = count("minProperties")
        node.maxProperties = count("maxProperties")
        if let required = object["required"] {
            if case .array(let names) = required, names.allSatisfy({ $0.stringValue != nil }) {
                node.required = names.compactMap(\.stringValue)
            } else if required != .bool(true), required != .bool(false) {
                // `required: true` is a Parameter's, sometimes written on a schema: left for the linter.
                problem(location.appending("required"), "'required' must be an array of property names")
            }
        }
        if case .object(let dependent)? = object["dependentRequired"] {
            node.dependentRequired = dependent.entries.map { ($0.key, ($0.value.arrayValue ?? []).compactMap(\.stringValue)) }
        }
    }

    private func readApplicators(_ node: inout SchemaNode, _ object: JSONObject, at location: SchemaLocation,
                                 dialect: SchemaDialect, sub: (String...) -> Int) {
        func many(_ keyword: String) -> [Int] {
            guard let value = object[keyword] else { return [] }
            guard case .array(let items) = value else {
                problem(location.appending(keyword), "'\(keyword)' must be an array of schemas")
                return []
            }
            return items.indices.map { sub(keyword, String($0)) }
        }
        func named(_ keyword: String) -> [(String, Int)] {
            guard case .object(let members)? = object[keyword] else { return [] }
            return members.entries.filter(\.value.isSchemaShaped).map { ($0.key, sub(keyword, $0.key)) }
        }
        func one(_ keyword: String) -> Int? {
            object[keyword].map { _ in sub(keyword) }
        }
        node.allOf = many("allOf")
        node.anyOf = many("anyOf")
        node.oneOf = many("oneOf")
        node.not = one("not")
        if let condition = one("if"), dialect == .draft2020 {
            node.ifThenElse = (condition, one("then"), one("else"))
        }
        node.properties = named("properties")
        node.patternProperties = named("patternProperties").map { (SchemaPattern($0.0), $0.1) }
        node.additionalProperties = one("additionalProperties")
        node.propertyNames = one("propertyNames")
        node.contains = one("contains")
        switch (dialect, object["items"]) {
        case (.openAPI30, .array?):
            node.prefixItems = many("items")
            node.items = one("additionalItems")
        case (_, .some):
            node.items = one("items")
            if dialect == .draft2020 { node.prefixItems = many("prefixItems") }
        case (_, nil):
            if dialect == .draft2020 { node.prefixItems = many("prefixItems") }
        }
        if dialect == .draft2020 {
            node.dependentSchemas = named("dependentSchemas")
            node.unevaluatedItems = one("unevaluatedItems")
            node.unevaluatedProperties = one("unevaluatedProperties")
            if node.unevaluatedItems != nil || node.unevaluatedProperties != nil { usesUnevaluated = true }
        } else if case .object(let dependencies)? = object["dependencies"] {
            for entry in dependencies.entries {
                if case .array(let names) = entry.value {
                    node.dependentRequired.append((entry.key, names.compactMap(\.stringValue)))
                } else {
                    node.dependentSchemas.append((entry.key, sub("dependencies", entry.key)))
                }
            }
        }
    }

    private func readAnnotations(_ node: inout SchemaNode, _ object: JSONObject, dialect: SchemaDialect,
                                 sub: (String...) -> Int) {
        node.readOnly = object["readOnly"] == .bool(true)
        node.writeOnly = object["writeOnly"] == .bool(true)
        node.deprecated = object["deprecated"] == .bool(true)
        node.defaultValue = object["default"]
        if let example = object["example"] { node.examples.append(example) }
        if case .array(let examples)? = object["examples"] { node.examples += examples }
        if case .object(let discriminator)? = object["discriminator"], let name = discriminator["propertyName"]?.stringValue {
            var mapping: [(String, Int)] = []
            if case .object(let map)? = discriminator["mapping"] {
                for entry in map.entries {
                    guard let reference = entry.value.stringValue else { continue }
                    // A mapping value is a reference, or a schema's name under components/schemas.
                    let target = reference.contains("/") || reference.contains("#") ? reference : "#/components/schemas/" + reference
                    var scratch = SchemaNode()
                    if let index = self.reference(target, base: node.location.document, dialect: dialect,
                                                  at: SchemaLocation(document: node.location.document),
                                                  into: &scratch) {
                        mapping.append((entry.key, index))
                    }
                }
            }
            node.discriminator = SchemaNode.Discriminator(propertyName: name, mapping: mapping)
        }
    }
}

extension JSONValue {
    /// The items, when the value is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let items) = self { items } else { nil }
    }
}
