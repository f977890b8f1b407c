/// GET replies of the read-only catalogue routes, keyed by request target, so a repeated query is served from a
/// pre-encoded buffer with its ETag instead of being filtered, sorted and encoded again.
///
/// Bounded by entries and bytes; the oldest entries go first. Used on one event-loop thread only.
final class ResponseCache {
    struct Entry {
        let body: SharedBytes
        let etag: String
        /// The reply a plain GET of this target gets without routing (`EventLoop.serveCannedReply`), built once;
        /// nil when the target asks for a fault, which only the pipeline applies.
        let canned: CannedReply?
        /// The `delay` the target asks for, in milliseconds.
        let delayMilliseconds: Int
    }

    // One thread, and no access overlaps another: the run-time exclusivity check (~75 instructions) is left out of
    // the lookup every cached reply makes.
    @exclusivity(unchecked) private var entries: [String: Entry] = [:]
    private var insertionOrder: [String] = []
    private var oldest = 0
    private var totalBytes = 0
    private let maximumEntries: Int
    private let maximumBytes: Int

    init(maximumEntries: Int = 512, maximumBytes: Int = 32 << 20) {
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// The prebuilt reply for a plain GET of `key` and the delay it asks for, when the target was cached as one.
    func cannedReply(for key: String) -> (reply: CannedReply, delayMilliseconds: Int)? {
        guard let hit = entries[key], let canned = hit.canned else { return nil }
        return (canned, hit.delayMilliseconds)
    }

    /// The cached entry for `key`, or the one `make` builds (and caches, when it fits).
    func entry(for key: String, servesDirectly: Bool, delayMilliseconds: Int, make: () -> SharedBytes) -> Entry {
        if let hit = entries[key] { return hit }
        let body = make()
        let etag = HTTPResponse.weakETag(for: body)
        let entry = Entry(body: body, etag: etag, canned: servesDirectly ? CannedReply(body: body, etag: etag) : nil,
                          delayMilliseconds: delayMilliseconds)
        guard body.count <= maximumBytes / 4 else { return entry }
        while entries.count >= maximumEntries || totalBytes + body.count > maximumBytes, oldest < insertionOrder.count {
            if let evicted = entries.removeValue(forKey: insertionOrder[oldest]) { totalBytes -= evicted.body.count }
            oldest += 1
        }
        if oldest > 1_024 {
            insertionOrder.removeFirst(oldest)
            oldest = 0
        }
        entries[key] = entry
        insertionOrder.append(key)
        totalBytes += body.count
        return entry
    }
}
