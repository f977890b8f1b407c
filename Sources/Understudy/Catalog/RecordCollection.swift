import UnderstudyLocking
import UnderstudyJSON

/// A collection a route serves: its items in file order, found by id, with the indexes its routes ask for.
///
/// The id index is built at load (it is also the duplicate check). Search text, sort orders and per-field indexes
/// are built the first time a route needs them and kept: start-up pays only for what every request needs, and a
/// relation route (`/posts/user/5`, `/comments/post/1`) is a dictionary lookup instead of a scan of the collection.
/// A request that needs search text, a filtered path's values or a sort order not built yet asks for it ahead of
/// routing (`Router+Groundwork`), so that it is built off the event loop.
/// Immutable apart from those caches, which sit behind a lock, so every server in a process can share one.
final class RecordCollection: Sendable {
    /// The route and list-wrapper key (`todos`).
    let name: String
    /// The word DummyJSON's 404 uses (`Todo with id 'x' not found`).
    let noun: String
    let records: [PreparedRecord]
    private let indexByID: [String: Int]
    /// The id a simulated add answers with: one past the largest integer id (the count + 1 for DummyJSON's
    /// contiguous ids), or the count + 1 when some ids are strings.
    let nextID: Int
    /// The fields `search` matches in; nil for every top-level string field (your own collections).
    let searchFields: [String]?

    private struct Indexes {
        var byValue: [String: [String: [Int]]] = [:]
        var byElement: [String: [String: [Int]]] = [:]
        /// Distinct values by field, in first-appearance order; only those read at load.
        var distinct: [String: [String]] = [:]
    }
    private let indexes: Locked<Indexes>
    /// Every item's search fields, lower-cased, in one buffer (one index, under the key "").
    private let searchText: KeptIndexes<SearchIndex>
    /// The sorted-by fields, read the first time a list sorts by them.
    let columns: SortColumns
    /// Each dotted path filtered by (`/filter?key=`): the positions of the items holding a truthy value there, by
    /// that value as JavaScript writes it. Any path a request names, so at most 4 are kept.
    private let filters: KeptIndexes<[String: [Int]]>

    /// `builds` runs the builds of search text and sort orders that requests ask for ahead of routing. `groups`
    /// are the values of a string field the loader read while checking each item (a product's category), in item
    /// order: its index and its distinct values are built from them at once, where reading the field back from
    /// 100,000 items' texts on a first request took ~150 ms.
    init(name: String, noun: String? = nil, records: [PreparedRecord], searchFields: [String]? = nil,
         groups: (field: String, values: [String])? = nil, builds: IndexBuilds = .background) {
        searchText = KeptIndexes(limit: 1, builds: builds)
        columns = SortColumns(builds: builds)
        filters = KeptIndexes(limit: 4, builds: builds)
        self.name = name
        self.noun = noun ?? RecordCollection.noun(for: name)
        self.records = records
        self.searchFields = searchFields
        var loaded = Indexes()
        if let groups {
            var byKey: [String: [Int]] = [:]
            var seen: Set<String> = []
            var ordered: [String] = []
            for (position, value) in groups.values.enumerated() {
                byKey[value.lowercased(), default: []].append(position)
                if seen.insert(value).inserted { ordered.append(value) }
            }
            loaded.byElement[groups.field] = byKey
            loaded.distinct[groups.field] = ordered
        }
        indexes = Locked(loaded)
        var index: [String: Int] = [:]
        index.reserveCapacity(records.count)
        for (position, record) in records.enumerated() { index[record.idText] = position }
        self.indexByID = index
        let integers = records.compactMap(\.integerID)
        self.nextID = integers.count == records.count ? (integers.max() ?? 0) + 1 : records.count + 1
    }

    /// `todos` → `Todo`: the name without a final `s`, capitalised.
    static func noun(for name: String) -> String {
        let singular = name.count > 1 && name.hasSuffix("s") ? String(name.dropLast()) : name
        return singular.prefix(1).uppercased() + singular.dropFirst()
    }

    var count: Int { records.count }
    var all: Range<Int> { records.indices }

    /// The position of the item whose `String(id)` is exactly `idText`.
    func position(of idText: String) -> Int? {
        indexByID[idText]
    }

    /// The item whose `String(id)` is exactly `idText`, or DummyJSON's plain 404 (`Todo with id 'x' not found`).
    func record(_ idText: String) throws(APIError) -> PreparedRecord {
        guard let position = indexByID[idText] else { throw APIError(404, "\(noun) with id '\(idText)' not found") }
        return records[position]
    }

    /// Positions of items where one of the search fields contains `search` (already lower-cased); all when empty.
    func search(_ search: String) -> [Int] {
        guard !search.isEmpty else { return Array(all) }
        return searchText.index("", build: buildSearchIndex).items(containing: Array(search.utf8))
    }

    /// Whether the search text is kept.
    var searchIsKept: Bool { searchText.isKept("") }

    /// Builds the search text on another thread unless it is kept, then calls `ready`; false (and no call) when it
    /// is kept already.
    func prepareSearch(then ready: @escaping @Sendable () -> Void) -> Bool {
        searchText.prepare("", build: buildSearchIndex, then: ready)
    }

    private var buildSearchIndex: @Sendable () -> SearchIndex {
        { [records, searchFields] in
            SearchIndex(count: records.count) { position in
                let record = records[position]
                if let fields = searchFields { return fields.compactMap { record.string($0)?.lowercased() } }
                return record.topLevelStrings.map { $0.lowercased() }
            }
        }
    }

    /// Positions of items whose top-level `field`, written as JavaScript's `String(value)`, is `text`.
    func matching(_ field: String, equals text: String) -> [Int] {
        index(\.byValue, field) { value in [SortKey.jsString(value)] }[text] ?? []
    }

    /// Positions of items whose `field` is a string equal to `text` ignoring case (a product's category), or an
    /// array with such an element (a post's tags).
    func matching(_ field: String, containsIgnoringCase text: String) -> [Int] {
        index(\.byElement, field) { value in
            Set(RecordCollection.strings(in: value).map { $0.lowercased() }).sorted()
        }[text.lowercased()] ?? []
    }

    /// A string field's value, or an array field's string elements.
    private static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let string): [string]
        case .array(let items): items.compactMap(\.stringValue)
        default: []
        }
    }

    private func index(_ family: WritableKeyPath<Indexes, [String: [String: [Int]]]>, _ field: String,
                       keys: (JSONValue) -> [String]) -> [String: [Int]] {
        indexes.withLock { state in
            if let built = state[keyPath: family][field] { return built }
            var built: [String: [Int]] = [:]
            for (position, record) in records.enumerated() {
                guard let value = record.value(of: field) else { continue }
                for key in keys(value) { built[key, default: []].append(position) }
            }
            state[keyPath: family][field] = built
            return built
        }
    }

    /// Distinct values of the string `field`, or string elements of the array `field`, in first-appearance order
    /// (`/products/category-list`, `/posts/tag-list`).
    func distinctElements(of field: String) -> [String] {
        if let loaded = indexes.withLock({ $0.distinct[field] }) { return loaded }
        var seen: Set<String> = []
        var ordered: [String] = []
        for record in records {
            guard let value = record.value(of: field) else { continue }
            for item in RecordCollection.strings(in: value) where seen.insert(item).inserted { ordered.append(item) }
        }
        return ordered
    }

    /// Positions of items where the dotted `path` leads to a truthy value whose `String(value)` is exactly `value`
    /// (`/users/filter?key=hair.color&value=Brown`).
    func filter(path: String, value: String) -> [Int] {
        filters.index(path, build: filterIndex(path))[value] ?? []
    }

    /// Whether the index of `path`'s values is kept.
    func filterIsKept(_ path: String) -> Bool {
        filters.isKept(path)
    }

    /// Builds the index of `path`'s values on another thread unless it is kept, then calls `ready`; false (and no
    /// call) when it is kept already. At 100,000 items a first filter read every item on the loop (~0.17 s).
    func prepareFilter(_ path: String, then ready: @escaping @Sendable () -> Void) -> Bool {
        filters.prepare(path, build: filterIndex(path), then: ready)
    }

    private func filterIndex(_ path: String) -> @Sendable () -> [String: [Int]] {
        { [records] in
            let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var index: [String: [Int]] = [:]
            for position in records.indices {
                var current = records[position].value(of: keys[0])
                for key in keys.dropFirst() { current = current?[key] }
                guard let found = current, found.isTruthy else { continue }
                index[SortKey.jsString(found), default: []].append(position)
            }
            return index
        }
    }
}
