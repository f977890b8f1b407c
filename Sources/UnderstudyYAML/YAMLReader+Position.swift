import UnderstudyJSON

extension YAMLReader {
    /// The 1-based line and column where the value at `pointer` (JSON pointer tokens) starts in the first document
    /// of `bytes`, or nil when there is none: for a message that names a place in a file. Read again from the
    /// events, only when a message needs it.
    package static func position(of pointer: [String], in bytes: [UInt8]) -> (line: Int, column: Int)? {
        positions(of: [pointer], in: bytes)[pointer]
    }

    /// Where each of `pointers` starts, found in one read of the events (those not found are absent).
    package static func positions(of pointers: Set<[String]>, in bytes: [UInt8]) -> [[String]: (line: Int, column: Int)] {
        var locator = YAMLLocator(targets: pointers)
        try? YAMLEvents.parse(bytes) { event throws(YAMLError) in
            if !locator.isDone { locator.take(event) }
        }
        return locator.found
    }
}

/// Follows the path of each node through the events, noting where each target's node starts. The targets are a trie
/// walked alongside, so a node off every target's path costs no lookup and no path is built.
private struct YAMLLocator {
    private var trie: [TrieNode] = [TrieNode()]
    private var targetCount = 0
    var found: [[String]: (line: Int, column: Int)] = [:]
    /// For each open sequence or mapping: where it is in the trie (nil: on no target's path) and its frame.
    private var frames: [(trie: Int?, frame: Frame)] = []
    private var documents = 0

    private struct TrieNode {
        var children: [String: Int] = [:]
        var target: [String]?
    }

    private enum Frame {
        case sequence(next: Int)
        case mapping(key: String?)
    }

    init(targets: Set<[String]>) {
        for target in targets {
            var node = 0
            for token in target {
                if let next = trie[node].children[token] {
                    node = next
                } else {
                    trie.append(TrieNode())
                    trie[node].children[token] = trie.count - 1
                    node = trie.count - 1
                }
            }
            trie[node].target = target
            targetCount += 1
        }
    }

    var isDone: Bool { found.count == targetCount || documents > 1 }

    mutating func take(_ event: YAMLEvent) {
        switch event.kind {
        case .documentStart:
            documents += 1
        case .documentEnd:
            break
        case .sequenceEnd, .mappingEnd:
            frames.removeLast()
        case .sequenceStart, .mappingStart:
            let place = documents == 1 ? open(event) : nil
            if let place { note(place, event) }
            frames.append((place, { if case .sequenceStart = event.kind { .sequence(next: 0) } else { .mapping(key: nil) } }()))
        case .scalar(let text, let plain, let tag):
            if case .mapping(key: nil)? = frames.last?.frame {
                // Off every target's path the key's text does not matter.
                let key = frames[frames.count - 1].trie == nil ? "" : YAMLScalar.key(text, plain: plain, tag: tag)
                frames[frames.count - 1].frame = .mapping(key: key)
                return
            }
            guard documents == 1, let place = open(event) else { return }
            note(place, event)
        case .alias:
            if case .mapping(key: nil)? = frames.last?.frame {
                frames[frames.count - 1].frame = .mapping(key: "")
                return
            }
            guard documents == 1, let place = open(event) else { return }
            note(place, event)
        }
    }

    private mutating func note(_ place: Int, _ event: YAMLEvent) {
        if let target = trie[place].target { found[target] = (event.line, event.column) }
    }

    /// The trie node of a node starting now (nil when it is on no target's path), and the frame it fills advanced
    /// past it.
    private mutating func open(_ event: YAMLEvent) -> Int? {
        guard let (parent, frame) = frames.last else { return 0 }
        switch frame {
        case .sequence(let next):
            frames[frames.count - 1].frame = .sequence(next: next + 1)
            return parent.flatMap { trie[$0].children[String(next)] }
        case .mapping(let key?):
            frames[frames.count - 1].frame = .mapping(key: nil)
            return parent.flatMap { trie[$0].children[key] }
        case .mapping(nil):
            // A mapping or sequence as a key: the tree refuses it; nothing here is found.
            return nil
        }
    }
}
