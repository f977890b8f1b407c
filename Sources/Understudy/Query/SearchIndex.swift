import CByteSearch

/// The lower-cased search text of every item of a collection in one buffer, so that a search is one scan over it
/// (`understudy_find_bytes`, from each hit's next item on) rather than a match per item and field.
///
/// Each field is followed by 0xFF, a byte no UTF-8 text holds, so no match of a query (valid UTF-8) spans two
/// fields; hits come in order, so each is mapped to its item by walking on through where the items' texts start.
struct SearchIndex: Sendable {
    private let text: [UInt8]
    /// Where each item's text starts, and one more entry: the end.
    private let starts: [Int]

    /// An index of `count` items whose searchable texts (already lower-cased) `fields` gives.
    init(count: Int, fields: (Int) -> [String]) {
        var text: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(count + 1)
        for item in 0..<count {
            starts.append(text.count)
            for field in fields(item) {
                text.append(contentsOf: field.utf8)
                text.append(0xFF)
            }
        }
        starts.append(text.count)
        self.text = text
        self.starts = starts
    }

    /// The positions of the items one of whose fields contains `needle` (lower-cased UTF-8), in order; every item
    /// when it is empty. JavaScript's `includes` matches code units, which a match of UTF-8 bytes is for valid text.
    func items(containing needle: [UInt8]) -> [Int] {
        let count = starts.count - 1
        guard !needle.isEmpty else { return Array(0..<count) }
        var found: [Int] = []
        text.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { pattern in
                guard let base = haystack.baseAddress, let first = pattern.baseAddress else { return }
                var from = 0
                var item = 0
                while haystack.count - from >= pattern.count {
                    guard let hit = understudy_find_bytes(base + from, haystack.count - from, first, pattern.count) else { return }
                    let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    // Hits come in order, so the item holding this one is found by walking on from the last.
                    while starts[item + 1] <= offset { item += 1 }
                    found.append(item)
                    // The rest of this item's text cannot add it again.
                    from = starts[item + 1]
                    item += 1
                }
            }
        }
        return found
    }
}
