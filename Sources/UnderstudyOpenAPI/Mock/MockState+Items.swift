import UnderstudyJSON

/// What the state keeps of an item a client creates: its new id, and what the answer may carry.
extension MockState {
    /// A new id: one the id property's schema takes (a UUID for `format: uuid`, a pattern's match), else of the same
    /// type as `example`, the next whole number after those kept or a seeded hex string.
    func newID(like example: JSONValue?, schemas: [Int], existing: [(id: String, value: JSONValue)], seed: UInt64) -> JSONValue {
        // The next after the highest id a JSON number holds exactly; ids past it (a client's) are passed over.
        var next: JSONValue {
            let highest = existing.compactMap { Int($0.id) }.filter { $0 < JSONNumber.largestExactInteger }.max() ?? 0
            return .number(JSONNumber(max(highest, 0) + 1))
        }
        if case .number? = example { return next }
        let random = SeededRandom(seed: seed).derived("id \(existing.count)")
        if let schema = schemas.first {
            let generator = ValueGenerator(graph: document.graph, mode: .dynamic)
            for attempt in 0..<4 {
                let made = generator.value(for: schema, random: random.derived("attempt \(attempt)"))
                let text = Self.idText(made)
                guard !text.isEmpty, !existing.contains(where: { $0.id == text }) else { continue }
                switch made {
                case .string: return made
                case .number where example == nil: return next
                default: continue
                }
            }
        }
        var draws = random
        let hex = (0..<16).map { _ in String(draws.int(in: 0...15), radix: 16) }.joined()
        if case .string(let text)? = example, text.count == 36, text.filter({ $0 == "-" }).count == 4 {
            let characters = Array(hex + hex)
            return .string([0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-"))
        }
        return .string(String(hex.prefix(12)))
    }

    /// The schemas of an item's id property in `operation`'s answer.
    func idSchemas(_ field: String, of operation: OpenAPIOperation) -> [Int] {
        itemProperties(of: operation).first { $0.name == field }?.schemas ?? []
    }

    /// What a client sent, without what the answer's item marks `writeOnly` (a password, DigitalOcean's domain
    /// `ip_address`): kept, it would come back in every answer about the item.
    func withoutWriteOnly(_ sent: JSONObject, answering operation: OpenAPIOperation) -> JSONObject {
        let graph = document.graph
        let hidden = Set(itemProperties(of: operation).filter { property in
            property.schemas.contains { graph.nodes[$0].writeOnly || graph.nodes[$0].ref.map { graph.nodes[$0].writeOnly } == true }
        }.map(\.name))
        guard !hidden.isEmpty else { return sent }
        var kept = sent
        kept.entries.removeAll { hidden.contains($0.key) }
        return kept
    }

    /// The properties of the item in `operation`'s first 2xx JSON answer: its object's, or those of the one object
    /// it wraps the item in (DigitalOcean's `{"certificate": {…}}`).
    private func itemProperties(of operation: OpenAPIOperation) -> [(name: String, schemas: [Int])] {
        guard let view = answerView(operation) else { return [] }
        guard view.properties.count == 1, let wrapped = view.properties[0].schemas.first else { return view.properties }
        var inner = ObjectView()
        inner.collect(wrapped, in: document.graph)
        return inner.properties.isEmpty ? view.properties : inner.properties
    }
}
