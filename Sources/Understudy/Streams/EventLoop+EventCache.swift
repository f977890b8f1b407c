extension EventLoop {
    /// An event's payload and its whole `id/event/data` block, shared by every stream that sends that id.
    struct SharedEvent {
        let payload: [UInt8]
        let event: [UInt8]
    }

    /// The bytes of event `id` under `seed`, built by `make` the first time and kept for the other streams.
    func eventBytes(id: Int, seed: UInt64, make: () -> [UInt8]) -> SharedEvent {
        if eventCacheSeed != seed || eventCache.count > 4_096 {
            eventCache.removeAll(keepingCapacity: true)
            eventCacheSeed = seed
        }
        if let cached = eventCache[id] { return cached }
        let payload = make()
        let event = Array("id: \(id)\nevent: product-update\ndata: ".utf8) + payload + [10, 10]
        let shared = SharedEvent(payload: payload, event: event)
        eventCache[id] = shared
        return shared
    }
}
