/// Each sorted-by field's order across a collection (`SortOrder`), built by the first sort on that field and kept:
/// items keep only their text, and reading one field of 100,000 of them and ordering it costs ~0.2 s, which a
/// request asking ahead (`prepare`) has built off the event loop.
///
/// The field names come from requests, so at most 16 orders are kept; past that the cache starts over.
final class SortColumns: Sendable {
    private let orders: KeptIndexes<SortOrder>

    init(builds: IndexBuilds = .background) {
        orders = KeptIndexes(builds: builds)
    }

    /// The order of `records` by `field`, built on this thread when not kept.
    func order(_ field: String, of records: [PreparedRecord]) -> SortOrder {
        orders.index(field) { SortOrder(field: field, of: records) }
    }

    /// Whether the order by `field` is kept.
    func isKept(_ field: String) -> Bool {
        orders.isKept(field)
    }

    /// Builds the order of `records` by `field` on another thread unless it is kept, then calls `ready`; false (and
    /// no call) when it is kept already.
    func prepare(_ field: String, of records: [PreparedRecord],
                                       then ready: @escaping @Sendable () -> Void) -> Bool {
        orders.prepare(field, build: { SortOrder(field: field, of: records) }, then: ready)
    }
}
