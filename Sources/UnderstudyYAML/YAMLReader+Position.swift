import UnderstudyJSON

extension YAMLReader {
    /// The 1-based line and column where the value at `pointer` (JSON pointer tokens) starts in the first document
    /// of `bytes`, or nil when there is none: for a message that names a place in a file. Read again from the
    /// events, only when a message needs it.
    package static func position(of pointer: [String], in bytes: [UInt8]) -> (line: Int, column: Int)? {
        var locator = YAMLLocator(target: pointer)
        try? YAMLEvents.parse(bytes) { event throws(YAMLError) in
            if locator.found == nil { locator.take(event) }
        }
        return locator.found
    }
}

/// Follows the path of each node through the events, until it meets the target's.
private struct YAMLLocator {
    let target: [String]
    var found: (line: Int, column: Int)?
    private var path: [String] = []
    private var frames: [Frame] = []
    private var documents = 0

    private enum Frame {
        case sequence(next: Int)
        case mapping(key: String?)
    }

    init(target: [String]) {
        self.target = target
    }

    mutating func take(_ event: YAMLEvent) {
        switch event.kind {
        case .documentStart:
            documents += 1
        case .documentEnd, .sequenceEnd, .mappingEnd:
            if case .sequenceEnd = event.kind { close() }
            if case .mappingEnd = event.kind { close() }
        case .sequenceStart, .mappingStart:
            guard documents == 1, let place = open(event) else { return }
            if place == target { found = (event.line, event.column) }
            path = place
            frames.append({ if case .sequenceStart = event.kind { .sequence(next: 0) } else { .mapping(key: nil) } }())
        case .scalar(let text, let plain, let tag):
            if case .mapping(key: nil)? = frames.last {
                frames[frames.count - 1] = .mapping(key: YAMLScalar.key(text, plain: plain, tag: tag))
                return
            }
            guard documents == 1, let place = open(event) else { return }
            if place == target { found = (event.line, event.column) }
        case .alias:
            if case .mapping(key: nil)? = frames.last {
                frames[frames.count - 1] = .mapping(key: "")
                return
            }
            guard documents == 1, let place = open(event) else { return }
            if place == target { found = (event.line, event.column) }
        }
    }

    /// The path of a node starting now, and the frame it fills advanced past it.
    private mutating func open(_ event: YAMLEvent) -> [String]? {
        guard let frame = frames.last else { return [] }
        switch frame {
        case .sequence(let next):
            frames[frames.count - 1] = .sequence(next: next + 1)
            return path + [String(next)]
        case .mapping(let key?):
            frames[frames.count - 1] = .mapping(key: nil)
            return path + [key]
        case .mapping(nil):
            // A mapping or sequence as a key: the tree refuses it; nothing here is found.
            return nil
        }
    }

    private mutating func close() {
        frames.removeLast()
        if !path.isEmpty { path.removeLast() }
    }
}
