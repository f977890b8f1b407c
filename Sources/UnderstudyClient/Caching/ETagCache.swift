import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking

/// An opt-in, in-memory cache of GET replies by their `ETag`, for conditional requests.
///
/// Set it as ``APIClient/Configuration/etagCache``. For a GET whose URL and `Authorization` have a stored reply,
/// the client sends `If-None-Match` with the stored validator; on `304 Not Modified` it decodes the stored body as
/// it did the first time, and ``HTTPResponseValue/isRevalidated`` is `true` (``HTTPResponseValue/response`` is
/// the 304 as it came off the wire). A 2xx with a new `ETag` replaces the entry.
///
/// It stores only a 2xx that decoded, carries an `ETag`, and has neither `Cache-Control: no-store` nor
/// `X-Understudy-Fault-Applied` (Understudy tags no faulted reply, and a fault is not the resource). Entries are
/// keyed by the absolute URL and the `Authorization` the request carried (as the client sends it: the bearer
/// token, or an endpoint's own header), so two users never share one. It is bounded by entries and body bytes,
/// evicting the least recently used. Requests that set `If-None-Match` themselves are left alone.
///
/// It does not depend on `URLCache`: requests it handles use `.reloadIgnoringLocalCacheData`, so it behaves the
/// same on Linux (whose `URLCache` differs) and on Apple platforms (whose `URLCache` would otherwise answer a
/// conditional request itself).
///
/// ```swift
/// let cache = ETagCache(maxEntries: 200, maxBytes: 2 << 20)
/// let client = APIClient(configuration: .init(baseURL: url, etagCache: cache))
/// let first = try await client.sendWithResponse(ProductEndpoints.product(id: 1))   // 200, stored
/// let again = try await client.sendWithResponse(ProductEndpoints.product(id: 1))   // 304, again.isRevalidated
/// ```
public final class ETagCache: Sendable {
    private let store: Locked<ETagStore>

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - maxEntries: The most replies kept; 0 stores nothing.
    ///   - maxBytes: The most body bytes kept over all entries; a larger single body is not stored.
    public init(maxEntries: Int = 256, maxBytes: Int = 4 << 20) {
        store = Locked(ETagStore(maxEntries: maxEntries, maxBytes: maxBytes))
    }

    /// How many replies are stored.
    public var count: Int { store.withLock { $0.count } }

    /// The body bytes stored, summed over the entries.
    public var totalBytes: Int { store.withLock { $0.totalBytes } }

    /// Drops every stored reply.
    public func removeAll() {
        store.withLock { $0.removeAll() }
    }

    /// The stored validator for a GET to `url` fetched with `authorization`, if any; does not touch LRU order.
    ///
    /// - Parameters:
    ///   - url: The absolute URL, query included.
    ///   - authorization: The `Authorization` header value the reply was fetched with.
    /// - Returns: The `ETag`, or nil when nothing is stored.
    public func etag(for url: URL, authorization: String? = nil) -> String? {
        store.withLock { $0.peek(.init(url: url.absoluteString, authorization: authorization))?.etag }
    }

    // MARK: - The client's side

    /// What the client keeps between sending a conditional request and its reply.
    package struct Lookup: Sendable {
        /// The entry's key.
        package var key: ETagStore.Key
        /// The entry as it was when the request left, so an eviction meanwhile cannot lose the body.
        package var entry: ETagStore.Entry?
    }

    /// Prepares a request: for a GET without its own `If-None-Match`, ignores local cache data and adds the
    /// stored validator.
    ///
    /// - Parameter request: The request as authorized; changed in place.
    /// - Returns: What to pass to ``store(_:response:for:)`` or use on a 304; nil when the cache does not apply.
    package func prepare(_ request: inout URLRequest) -> Lookup? {
        guard let key = Self.key(for: request) else { return nil }
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let entry = store.withLock { $0.entry(for: key) }
        if let entry {
            request.setValue(entry.etag, forHTTPHeaderField: "If-None-Match")
        }
        return Lookup(key: key, entry: entry)
    }

    /// Records a successful, decoded reply: stores it when it may be stored, and otherwise drops the entry it
    /// makes stale.
    ///
    /// - Parameters:
    ///   - body: The raw body.
    ///   - response: The reply.
    ///   - lookup: What ``prepare(_:)`` returned for the request.
    package func store(_ body: Data, response: HTTPURLResponse, for lookup: Lookup) {
        guard (200..<300).contains(response.statusCode) else { return }
        guard let etag = Self.storableETag(response) else {
            store.withLock { $0.remove(lookup.key) }
            return
        }
        store.withLock { $0.insert(.init(etag: etag, body: body), for: lookup.key) }
    }

    /// The key for a GET with no `If-None-Match` of its own, nil otherwise.
    package static func key(for request: URLRequest) -> ETagStore.Key? {
        guard (request.httpMethod ?? "GET").uppercased() == "GET", let url = request.url,
              request.value(forHTTPHeaderField: "If-None-Match") == nil else { return nil }
        return .init(url: url.absoluteString, authorization: request.value(forHTTPHeaderField: "Authorization"))
    }

    /// The reply's `ETag` when it may be stored: present, no `no-store`, no injected fault.
    package static func storableETag(_ response: HTTPURLResponse) -> String? {
        guard response.value(forHTTPHeaderField: "X-Understudy-Fault-Applied") == nil,
              let etag = response.value(forHTTPHeaderField: "ETag"), !etag.isEmpty else { return nil }
        if let control = response.value(forHTTPHeaderField: "Cache-Control") {
            let directives = control.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            if directives.contains("no-store") { return nil }
        }
        return etag
    }
}
