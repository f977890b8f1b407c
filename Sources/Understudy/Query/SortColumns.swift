import UnderstudyLocking

/// Each sorted-by field's values across a collection, reduced to what JavaScript's `<` compares, built by the first
/// sort on that field and kept: items keep only their text, and reading one field of 100,000 of them costs ~0.4 s.
///
/// The field names come from requests, so at most `limit` columns are kept; past that the cache starts over.
final class SortColumns: Sendable {
    private let columns = Locked<[String: [SortKey]]>([:])
    private let limit = 16

    /// The column of `field`, built by `build` when not kept.
    func column(_ field: String, build: () -> [SortKey]) -> [SortKey] {
        if let kept = columns.withLock({ $0[field] }) { return kept }
        // Built outside the lock: a slow first sort must not hold back another field's sort or a cached one.
        let built = build()
        columns.withLock { kept in
            if kept.count >= limit { kept.removeAll() }
            kept[field] = built
        }
        return built
    }
}
