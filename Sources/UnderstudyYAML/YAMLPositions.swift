import UnderstudyJSON

/// Where each value of a document's tree starts, noted as the tree was built: one mark per value node (keys are
/// not nodes) in document order, with how many nodes its subtree holds, so a JSON pointer is found by skipping
/// siblings' subtrees, without reading the text again.
package struct YAMLPositions: Sendable {
    struct Mark {
        var line: UInt32
        var column: UInt32
        /// The marks this node's subtree takes, itself included (1 for a scalar or an alias).
        var span: UInt32
        /// An alias: its tree is the anchored value's, and nothing under it has a mark of its own.
        var isAlias: Bool
    }

    var marks: [Mark] = []

    /// Where the value at each of `pointers` in `tree` (the tree these marks were noted for) starts; a pointer that
    /// names nothing, or goes into an alias's value, is absent.
    package func positions(of pointers: Set<[String]>, in tree: JSONValue) -> [[String]: (line: Int, column: Int)] {
        var found: [[String]: (line: Int, column: Int)] = [:]
        for pointer in pointers {
            if let mark = mark(of: pointer, in: tree) { found[pointer] = (Int(mark.line), Int(mark.column)) }
        }
        return found
    }

    private func mark(of pointer: [String], in tree: JSONValue) -> Mark? {
        var node = 0
        var value = tree
        for token in pointer {
            guard node < marks.count, !marks[node].isAlias else { return nil }
            let position: Int
            switch value {
            case .object(let object):
                guard let index = object.entries.lastIndex(where: { $0.key == token }) else { return nil }
                position = index
                value = object.entries[index].value
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                position = index
                value = items[index]
            default:
                return nil
            }
            var child = node + 1
            for _ in 0..<position {
                guard child < marks.count else { return nil }
                child += Int(marks[child].span)
            }
            node = child
        }
        return node < marks.count ? marks[node] : nil
    }
}
