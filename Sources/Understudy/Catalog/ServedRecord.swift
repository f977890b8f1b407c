import UnderstudyJSON

/// An item a collection serves: the object as loaded and its JSON, encoded once.
///
/// Products (`PreparedProduct`, with their per-key fragments) and every other collection's items
/// (`PreparedRecord`) conform, so one listing engine (`RecordListing`) pages, sorts, selects and wraps them all.
protocol ServedRecord: Sendable {
    /// The id as DummyJSON matches it: `String(id)`.
    var idText: String { get }
    /// The item as loaded, keys in file order.
    var object: JSONObject { get }
    /// The whole item's compact JSON, shareable with evhttp by reference.
    var encoded: SharedBytes { get }
    /// The item's JSON with only `keys`, in that order (`id` is always first), as DummyJSON's `select` does.
    func encoded(selecting keys: [String]) -> [UInt8]
}

extension PreparedProduct: ServedRecord {}
