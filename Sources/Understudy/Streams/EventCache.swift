extension ReplyWriter {
    /// An event's payload and its whole `id/event/data` block, shared by every stream that sends that id.
    struct SharedEvent {
        let payload: [UInt8]
        let event: [UInt8]
    }

    /// Which event: sessions with seeds of their own stream different payloads for the same id.
    struct EventKey: Hashable {
        let seed: UInt64
        let id: Int
    }

    /// The bytes of event `id` under `seed`, built by `make` the first time and kept for the other streams.
    func eventBytes(id: Int, seed: UInt64, make: () -> [UInt8]) -> SharedEvent {
        let key = EventKey(seed: seed, id: id)
        if let cached = eventCache[key] { return cached }
        if eventCache.count >= 4_096 { eventCache.removeAll(keepingCapacity: true) }
        let payload = make()
        let event = Array("id: \(id)\nevent: product-update\ndata: ".utf8) + payload + [10, 10]
        let shared = SharedEvent(payload: payload, event: event)
        eventCache[key] = shared
        return shared
    }
}
