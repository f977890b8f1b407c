import UnderstudyJSON

/// Builds JSON trees from parser events, with an explicit stack (no recursion, so depth costs no call stack).
struct YAMLTreeBuilder {
    private(set) var documents: [JSONValue] = []
    /// Where the first document's values start (not noted when merge keys are on: a merge moves entries about).
    private(set) var positions = YAMLPositions()
    private let options: YAMLOptions
    private var stack: [Frame] = []
    /// Anchored values, and how many nodes each holds (what expanding an alias of it costs).
    private var anchors: [String: (value: JSONValue, nodes: Int)] = [:]
    private var aliasNodes = 0
    private var root: JSONValue?

    init(options: YAMLOptions) {
        self.options = options
    }

    /// How many entries a mapping has before its keys are kept in a set: below it, looking through them is cheaper.
    static let keySetThreshold = 12

    /// A mapping or sequence being read.
    private struct Frame {
        enum Shape {
            case sequence([JSONValue])
            /// Entries in order, the keys seen (duplicates are errors; kept as a set once the mapping is large, else
            /// the entries are looked through), and the key waiting for its value.
            case mapping([JSONObject.Entry], Set<String>, pendingKey: (String, line: Int, column: Int)?)
        }

        var shape: Shape
        var anchor: String?
        /// Its mark in `positions`, when noted.
        var mark: Int?
        var nodes = 1
        var line: Int
        var column: Int
    }

    mutating func take(_ event: YAMLEvent) throws(YAMLError) {
        switch event.kind {
        case .documentStart:
            root = nil
            anchors = [:]
        case .documentEnd:
            documents.append(root ?? .null)
        case .sequenceStart:
            try push(Frame(shape: .sequence([]), anchor: event.anchor, mark: noteMark(event), line: event.line,
                           column: event.column), event)
        case .mappingStart:
            try push(Frame(shape: .mapping([], [], pendingKey: nil), anchor: event.anchor, mark: noteMark(event),
                           line: event.line, column: event.column), event)
        case .sequenceEnd, .mappingEnd:
            let frame = stack.removeLast()
            if let mark = frame.mark { positions.marks[mark].span = UInt32(positions.marks.count - mark) }
            let value: JSONValue
            switch frame.shape {
            case .sequence(let items): value = .array(items)
            case .mapping(let entries, _, _): value = .object(JSONObject(entries))
            }
            if let anchor = frame.anchor { anchors[anchor] = (value, frame.nodes) }
            try add(value, nodes: frame.nodes, event, keyText: nil)
        case .scalar(let text, let plain, let tag):
            let value = YAMLScalar.value(text, plain: plain, tag: tag)
            if let anchor = event.anchor { anchors[anchor] = (value, 1) }
            _ = noteMark(event)
            try add(value, nodes: 1, event, keyText: YAMLScalar.key(of: value, text: text))
        case .alias(let name):
            guard let anchored = anchors[name] else {
                throw YAMLError(line: event.line, column: event.column, reason: "alias *\(name) names no anchor before it")
            }
            _ = noteMark(event, alias: true)
            aliasNodes += anchored.nodes
            guard aliasNodes <= options.maximumAliasNodes else {
                throw YAMLError(line: event.line, column: event.column,
                                reason: "aliases expand to more than \(options.maximumAliasNodes) nodes (an alias bomb?)")
            }
            try add(anchored.value, nodes: anchored.nodes, event, keyText: anchored.value.stringValue)
        }
    }

    /// Notes where a value node starts (a key is not one), in the first document; its index in the marks.
    private mutating func noteMark(_ event: YAMLEvent, alias: Bool = false) -> Int? {
        guard documents.isEmpty, !options.mergeKeys else { return nil }
        if case .mapping(_, _, pendingKey: nil)? = stack.last?.shape { return nil }
        positions.marks.append(.init(line: UInt32(clamping: event.line), column: UInt32(clamping: event.column), span: 1,
                                     isAlias: alias))
        return positions.marks.count - 1
    }

    private mutating func push(_ frame: Frame, _ event: YAMLEvent) throws(YAMLError) {
        if case .mapping(_, _, pendingKey: nil)? = stack.last?.shape {
            throw YAMLError(line: event.line, column: event.column,
                            reason: "a key is a mapping or a sequence; JSON keys are strings")
        }
        guard stack.count < options.maximumDepth else {
            throw YAMLError(line: event.line, column: event.column,
                            reason: "nesting deeper than \(options.maximumDepth) levels")
        }
        stack.append(frame)
    }

    /// Puts a finished node where it belongs: the document's root, an item, a key, or a key's value.
    private mutating func add(_ value: JSONValue, nodes: Int, _ event: YAMLEvent, keyText: String?) throws(YAMLError) {
        guard var frame = stack.popLast() else {
            root = value
            return
        }
        frame.nodes += nodes
        switch frame.shape {
        case .sequence(var items):
            frame.shape = .sequence([])
            items.append(value)
            frame.shape = .sequence(items)
        case .mapping(var entries, var keys, let pending):
            frame.shape = .sequence([])
            if let (key, line, column) = pending {
                if options.mergeKeys, key == "<<" {
                    try merge(value, into: &entries, keys: keys, line: line, column: column)
                } else if options.mergeKeys, let merged = entries.firstIndex(where: { $0.key == key }) {
                    // A key of this mapping's own wins over a merged one, wherever it is written.
                    entries[merged].value = value
                } else {
                    entries.append(JSONObject.Entry(key: key, value: value))
                }
                frame.shape = .mapping(entries, keys, pendingKey: nil)
            } else {
                guard let key = keyText else {
                    throw YAMLError(line: event.line, column: event.column,
                                    reason: "a key is a mapping or a sequence; JSON keys are strings")
                }
                // With merges, entries hold merged keys too, so a mapping's own are always kept in the set.
                let keepsSet = options.mergeKeys || entries.count >= YAMLTreeBuilder.keySetThreshold
                if !options.mergeKeys, entries.count == YAMLTreeBuilder.keySetThreshold { keys = Set(entries.lazy.map(\.key)) }
                guard !(keepsSet ? keys.contains(key) : entries.contains { $0.key == key }) else {
                    throw YAMLError(line: event.line, column: event.column, reason: "duplicate key '\(key)'")
                }
                if keepsSet, !(options.mergeKeys && key == "<<") { keys.insert(key) }
                frame.shape = .mapping(entries, keys, pendingKey: (key, event.line, event.column))
            }
        }
        stack.append(frame)
    }

    /// `<<: *base` or `<<: [*a, *b]`: the named mappings' keys that this mapping does not set (YAML 1.1's merge;
    /// the first mapping named wins over the later ones).
    private func merge(_ value: JSONValue, into entries: inout [JSONObject.Entry], keys: Set<String>,
                       line: Int, column: Int) throws(YAMLError) {
        let sources: [JSONValue] = if case .array(let items) = value { items } else { [value] }
        for source in sources {
            guard case .object(let object) = source else {
                throw YAMLError(line: line, column: column, reason: "'<<' merges mappings only")
            }
            for entry in object.entries where !keys.contains(entry.key) && !entries.contains(where: { $0.key == entry.key }) {
                entries.append(entry)
            }
        }
    }
}
