extension EventLoop {
    /// The stream plan when `incoming` asks for `/products/stream`; nil for every other route.
    func streamPlan(for incoming: HTTPRequest, fault: FaultSpec?, session: String?) -> Result<StreamPlan, APIError>? {
        var path = incoming.path
        if path.hasPrefix("/auth/") { path = path.dropFirst("/auth".count) }
        guard path == "/products/stream" || path == "/product/stream" else { return nil }
        guard incoming.method == "GET" || incoming.method == "HEAD" else {
            return .failure(router.methodNotAllowed(incoming, allowed: ["GET"]))
        }
        do throws(APIError) {
            if path != incoming.path { _ = try router.authenticate(incoming) }
            _ = try ListQuery.parse(incoming.query)
            guard configuration.catalog.productCount > 0 else {
                throw APIError(404, "No products to stream: the catalogue is empty")
            }
            return .success(try StreamPlan.parse(incoming, faults: fault?.stream ?? FaultSpec.StreamFaults(),
                                                 seed: faults.seed))
        } catch {
            return .failure(error)
        }
    }

    /// Sends the head and the `retry:` field, then lets the stream's timer write events.
    func startStream(_ task: ConnectionTask, _ plan: StreamPlan) {
        startReply(task, contentLength: nil)
        let stream = EventStream(plan: plan, catalog: configuration.catalog, now: EventLoop.monotonicMilliseconds())
        task.stream = stream
        stream.start(task, loop: self)
        guard task.ownsRequest, let first = stream.nextWake(now: EventLoop.monotonicMilliseconds()) else { return }
        // One one-shot timer per stream, re-armed for exactly the next event, heartbeat or dripped byte.
        task.onTick = { [unowned self] task in
            guard let stream = task.stream else { return }
            if let next = stream.tick(task, loop: self, now: EventLoop.monotonicMilliseconds()) {
                schedule(task, inMilliseconds: next)
            }
        }
        schedule(task, inMilliseconds: first)
    }
}
