import Foundation

/// The cache's bookkeeping as a value: entries keyed by URL and `Authorization`, bounded by count and body bytes,
/// evicting the least recently used. No lock and no I/O; ``ETagCache`` owns one behind a lock.
package struct ETagStore: Sendable {
    /// What a stored reply is found by: the request's absolute URL and the `Authorization` it was fetched with.
    package struct Key: Sendable, Hashable {
        /// The absolute URL, query included.
        package var url: String
        /// The `Authorization` header value, nil when the request had none.
        package var authorization: String?

        /// Creates a key.
        package init(url: String, authorization: String?) {
            self.url = url
            self.authorization = authorization
        }
    }

    /// One stored reply: its validator and body.
    package struct Entry: Sendable, Equatable {
        /// The `ETag` the reply carried, sent back as `If-None-Match`.
        package var etag: String
        /// The body, handed to the caller on a 304.
        package var body: Data
    }

    private struct Slot: Sendable {
        var entry: Entry
        var lastUse: UInt64
    }

    /// The most entries kept.
    package let maxEntries: Int
    /// The most body bytes kept, summed over the entries.
    package let maxBytes: Int
    private var slots: [Key: Slot] = [:]
    private var clock: UInt64 = 0
    /// The body bytes held now.
    package private(set) var totalBytes = 0

    /// Creates an empty store; limits below zero count as zero.
    package init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(0, maxEntries)
        self.maxBytes = max(0, maxBytes)
    }

    /// How many entries are held.
    package var count: Int { slots.count }

    /// The entry for `key`, marked as just used.
    package mutating func entry(for key: Key) -> Entry? {
        guard var slot = slots[key] else { return nil }
        clock += 1
        slot.lastUse = clock
        slots[key] = slot
        return slot.entry
    }

    /// The entry for `key` without touching its place in the LRU order.
    package func peek(_ key: Key) -> Entry? {
        slots[key]?.entry
    }

    /// Stores `entry` under `key`, replacing what was there, then evicts the least recently used entries until
    /// both limits hold. A body larger than `maxBytes` is not stored (and drops the old entry, now stale).
    package mutating func insert(_ entry: Entry, for key: Key) {
        remove(key)
        guard maxEntries > 0, entry.body.count <= maxBytes else { return }
        clock += 1
        slots[key] = Slot(entry: entry, lastUse: clock)
        totalBytes += entry.body.count
        // Linear in the entry count per eviction: the cache is meant for tens to hundreds of entries.
        while slots.count > maxEntries || totalBytes > maxBytes,
              let oldest = slots.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            remove(oldest)
        }
    }

    /// Drops the entry for `key`, if any.
    package mutating func remove(_ key: Key) {
        if let old = slots.removeValue(forKey: key) {
            totalBytes -= old.entry.body.count
        }
    }

    /// Drops every entry.
    package mutating func removeAll() {
        slots.removeAll()
        totalBytes = 0
    }
}
