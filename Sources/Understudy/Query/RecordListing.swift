import UnderstudyJSON

/// DummyJSON's list pipeline for any collection: filter (the caller's), sort, skip (only when > 0), limit, select;
/// then the `{"<name>": [...], "total", "skip", "limit"}` wrapper. Items are written from their pre-encoded JSON.
enum RecordListing {
    /// Which list parameters a route honours: DummyJSON validates them everywhere but some handlers ignore them
    /// (`/todos?select=todo` answers whole todos; `/users/5/posts` does not sort).
    struct Honours: Sendable, Equatable {
        var select = true
        var sort = true

        static let all = Honours()
        static let paging = Honours(select: false, sort: false)
        static let pagingAndSelect = Honours(select: true, sort: false)
    }

    /// The list wrapper named `key` over the items of `records` at `matches` (in collection order).
    ///
    /// `matches` is a range for a whole collection, so an unsorted first page costs the same at 100 items as at
    /// 100,000: only a sort needs the positions as an array.
    static func body<Matches: RandomAccessCollection<Int>>(
        _ key: String, _ records: [PreparedRecord], matching matches: Matches, query: ListQuery, honours: Honours = .all,
        columns: SortColumns? = nil
    ) -> [UInt8] {
        guard honours.sort, let sortBy = query.sortBy else {
            return write(key, records, page(matches, skip: query.skip, limit: query.limit), total: matches.count,
                         query: query, honours: honours)
        }
        let order = columns?.order(sortBy, of: records) ?? SortOrder(field: sortBy, of: records)
        let ordered = order.sorted(Array(matches), query.order)
        return write(key, records, page(ordered, skip: query.skip, limit: query.limit), total: matches.count,
                     query: query, honours: honours)
    }

    private static func write<Page: Collection<Int>>(
        _ key: String, _ records: [PreparedRecord], _ page: Page, total: Int, query: ListQuery, honours: Honours
    ) -> [UInt8] {
        let select = honours.select ? query.select : nil

        var writer = JSONWriter(reservingCapacity: page.count * (records.first?.encoded.count ?? 64) + 64)
        writer.writeRaw("{\"")
        writer.writeRaw(key.utf8)
        writer.writeRaw("\":[")
        for (position, index) in page.enumerated() {
            if position > 0 { writer.writeRaw(",") }
            let record = records[index]
            if let select {
                writer.writeRaw(record.encoded(selecting: select))
            } else {
                writer.writeRaw(record.encoded.buffer)
            }
        }
        writer.writeRaw("],\"total\":")
        writer.write(int: total)
        writer.writeRaw(",\"skip\":")
        // NaN (`skip=`) and ±Infinity (`skip=1e999`) come out as null, as `JSON.stringify` writes them.
        writer.writeRaw(JSONNumber(query.skip).text.utf8)
        writer.writeRaw(",\"limit\":")
        writer.write(int: page.count)
        writer.writeRaw("}")
        return writer.bytes
    }

    /// `items.slice(skip)` when skip > 0, then `slice(0, limit)` unless limit is exactly 0, as JavaScript slices.
    static func page<Items: RandomAccessCollection<Int>>(_ items: Items, skip: Double, limit: Double) -> Items.SubSequence {
        var remaining = items[...]
        if skip > 0 { remaining = remaining.dropFirst(clampedCount(skip)) }
        guard limit != 0 else { return remaining }
        if limit.isNaN { return remaining.prefix(0) }
        if limit > 0 { return remaining.prefix(clampedCount(limit)) }
        return remaining.dropLast(clampedCount(-limit))
    }

    private static func clampedCount(_ value: Double) -> Int {
        value >= Double(Int32.max) ? Int(Int32.max) : Int(value)
    }
}

/// A field value reduced to what JavaScript's `<` compares; `SortOrder` ranks a collection by it.
enum SortKey: Equatable, Comparable {
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
            self = .string(Array(items.map(SortKey.jsString).joined(separator: ",").utf16))
        case .object?: self = .string(Array("[object Object]".utf16))
        }
    }

    /// `String(value)` in JavaScript, for the scalars and arrays a fixture holds.
    static func jsString(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array(let items): items.map { $0 == .null ? "" : jsString($0) }.joined(separator: ",")
        case .object: "[object Object]"
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
