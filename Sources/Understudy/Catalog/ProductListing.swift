import UnderstudyJSON

/// DummyJSON's list pipeline: filter, sort, skip (only when > 0), limit, select; then the list wrapper.
struct ProductListing {
    let catalog: Catalog

    /// The `{"products", "total", "skip", "limit"}` wrapper for the products at `matches` (catalogue order).
    func body(matching matches: [Int], query: ListQuery) -> [UInt8] {
        var ordered = matches
        if let sortBy = query.sortBy { sort(&ordered, by: sortBy, order: query.order) }
        let page = ProductListing.page(ordered, skip: query.skip, limit: query.limit)

        var writer = JSONWriter(reservingCapacity: page.count * 1_400 + 64)
        writer.writeRaw("{\"products\":[")
        for (position, index) in page.enumerated() {
            if position > 0 { writer.writeRaw(",") }
            let product = catalog.products[index]
            if let keys = query.select {
                writer.writeRaw(product.encoded(selecting: keys))
            } else {
                writer.writeRaw(product.encoded.buffer)
            }
        }
        writer.writeRaw("],\"total\":")
        writer.write(int: matches.count)
        writer.writeRaw(",\"skip\":")
        // NaN (`skip=`) and ±Infinity (`skip=1e999`) come out as null, as `JSON.stringify` writes them.
        writer.writeRaw(JSONNumber(query.skip).text.utf8)
        writer.writeRaw(",\"limit\":")
        writer.write(int: page.count)
        writer.writeRaw("}")
        return writer.bytes
    }

    /// Indices of products whose title or description contains `search` (all of them when it is empty).
    func search(_ search: String) -> [Int] {
        guard !search.isEmpty else { return Array(catalog.products.indices) }
        let needle = Array(search.utf8)
        return catalog.products.indices.filter { index in
            let product = catalog.products[index]
            return ProductListing.includes(product.searchableTitle, needle)
                || ProductListing.includes(product.searchableDescription, needle)
        }
    }

    /// JavaScript's `includes`, as DummyJSON searches: a literal match of code units. A match of UTF-8 bytes is a
    /// match of UTF-16 code units for valid text. (`String.contains(_:)` matched by Character and built a search
    /// table per call: about 4 µs per product and request.)
    static func includes(_ text: String, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let found = text.utf8.withContiguousStorageIfAvailable { haystack -> Bool in
            needle.withUnsafeBufferPointer { pattern -> Bool in
                guard haystack.count >= pattern.count else { return false }
                var start = 0
                let last = haystack.count - pattern.count
                while start <= last {
                    if haystack[start] == first {
                        var offset = 1
                        while offset < pattern.count, haystack[start + offset] == pattern[offset] { offset += 1 }
                        if offset == pattern.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
        return found ?? includes(String(decoding: Array(text.utf8), as: UTF8.self), needle)
    }

    /// Indices of products in the category `slug`, matched case-insensitively.
    func category(_ slug: String) -> [Int] {
        let key = slug.lowercased()
        return catalog.products.indices.filter { catalog.products[$0].categoryKey == key }
    }

    /// `items.slice(skip)` when skip > 0, then `slice(0, limit)` unless limit is exactly 0, as JavaScript slices.
    static func page(_ items: [Int], skip: Double, limit: Double) -> ArraySlice<Int> {
        var remaining = items[...]
        if skip > 0 { remaining = remaining.dropFirst(clampedCount(skip)) }
        guard limit != 0 else { return remaining }
        if limit.isNaN { return [] }
        if limit > 0 { return remaining.prefix(clampedCount(limit)) }
        return remaining.dropLast(clampedCount(-limit))
    }

    private static func clampedCount(_ value: Double) -> Int {
        value >= Double(Int32.max) ? Int(Int32.max) : Int(value)
    }

    /// A stable sort by one top-level field with JavaScript's `<`: numbers numerically, strings by UTF-16 code unit.
    /// Products missing the field go last, so the order is total (DummyJSON's is implementation-defined there).
    private func sort(_ indices: inout [Int], by field: String, order: ListQuery.Order) {
        let keys = Dictionary(uniqueKeysWithValues: indices.map { ($0, SortKey(catalog.products[$0].object[field])) })
        guard keys.values.contains(where: { $0 != .missing }) else { return }
        let ranked = indices.enumerated().sorted { lhs, rhs in
            let left = keys[lhs.element] ?? .missing
            let right = keys[rhs.element] ?? .missing
            if left == right { return lhs.offset < rhs.offset }
            if left == .missing || right == .missing { return right == .missing }
            return order == .ascending ? left < right : right < left
        }
        indices = ranked.map(\.element)
    }
}

/// A field value reduced to what JavaScript's `<` compares.
private enum SortKey: Equatable, Comparable {
    case number(Double)
    case string([UInt16])
    case missing

    init(_ value: JSONValue?) {
        switch value {
        case nil: self = .missing
        case .null?: self = .number(0)
        case .bool(let flag)?: self = .number(flag ? 1 : 0)
        case .number(let number)?: self = .number(number.double)
        case .string(let string)?: self = .string(Array(string.utf16))
        case .array(let items)?:
            // JavaScript compares arrays by their `toString()`: elements joined with commas.
            let text = items.map { item -> String in
                switch item {
                case .string(let string): string
                case .number(let number): number.text
                case .bool(let flag): flag ? "true" : "false"
                default: ""
                }
            }.joined(separator: ",")
            self = .string(Array(text.utf16))
        case .object?: self = .string(Array("[object Object]".utf16))
        }
    }

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case (.number(let left), .number(let right)): left < right
        case (.string(let left), .string(let right)): left.lexicographicallyPrecedes(right)
        case (.number, .string): true
        default: false
        }
    }
}
