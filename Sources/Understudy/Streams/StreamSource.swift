/// What every `/products/stream` of one server draws on: the catalogue its payloads come from, the bytes of each
/// event already built, and how far a reader may fall behind. Lives on the loop thread.
final class StreamSource {
    /// An event's payload and its whole `id/event/data` block, shared by every stream that sends that id.
    struct SharedEvent {
        let payload: [UInt8]
        let event: [UInt8]
    }

    /// Which event: sessions with seeds of their own stream different payloads for the same id.
    private struct EventKey: Hashable {
        let seed: UInt64
        let id: Int
    }

    let catalog: Catalog
    /// A reader that stops reading is dropped once this much is waiting for it in the server.
    let maximumUnflushedBytes: Int
    private var events: [EventKey: SharedEvent] = [:]

    init(catalog: Catalog, maximumUnflushedBytes: Int) {
        self.catalog = catalog
        self.maximumUnflushedBytes = maximumUnflushedBytes
    }

    /// The bytes of event `id` under `seed`, built by `make` the first time and kept for the other streams.
    func eventBytes(id: Int, seed: UInt64, make: () -> [UInt8]) -> SharedEvent {
        let key = EventKey(seed: seed, id: id)
        if let cached = events[key] { return cached }
        if events.count >= 4_096 { events.removeAll(keepingCapacity: true) }
        let payload = make()
        let event = Array("id: \(id)\nevent: product-update\ndata: ".utf8) + payload + [10, 10]
        let shared = SharedEvent(payload: payload, event: event)
        events[key] = shared
        return shared
    }
}
