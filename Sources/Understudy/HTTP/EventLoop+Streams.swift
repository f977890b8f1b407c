import CLibevent
import Foundation

extension EventLoop {
    /// Whether `incoming` asks for `/products/stream` (or an alias of it). Only GET and HEAD do: any other method is
    /// routed like `/products/{id}` with the id `stream`, as `/products/categories` is (DummyJSON's `/:id` routes),
    /// so `Allow` lists the same methods on every `/products/<word>`.
    func isStreamRequest(_ incoming: HTTPRequest) -> Bool {
        guard incoming.method == "GET" || incoming.method == "HEAD" else { return false }
        var path = incoming.path
        if path.hasPrefix("/auth/") { path = path.dropFirst("/auth".count) }
        return path == "/products/stream" || path == "/product/stream"
    }

    /// The stream plan when `incoming` asks for `/products/stream`; nil for every other route.
    func streamPlan(for incoming: HTTPRequest, fault: FaultSpec?, session: String?) -> Result<StreamPlan, APIError>? {
        guard isStreamRequest(incoming) else { return nil }
        let path = incoming.path.hasPrefix("/auth/") ? incoming.path.dropFirst("/auth".count) : incoming.path
        do throws(APIError) {
            if path != incoming.path { _ = try router.authenticate(incoming) }
            _ = try ListQuery.parse(incoming.query)
            guard configuration.catalog.productCount > 0 else {
                throw APIError(404, "No products to stream: the catalogue is empty")
            }
            // A started session's seed, so parallel tests with their own seeds get their own payloads.
            let seed = faults.withBook { $0.payloadSeed(session: session) }
            return .success(try StreamPlan.parse(incoming, faults: fault?.stream ?? FaultSpec.StreamFaults(), seed: seed))
        } catch {
            return .failure(error)
        }
    }

    /// Sends the head and the `retry:` field, then lets the stream's timer write events.
    /// The kernel's send buffer for a stream: small, so a reader that stops reading is noticed (its bytes pile up
    /// in the server, where they are counted) after kilobytes rather than the megabytes Linux would buffer.
    static let streamSendBufferBytes: Int32 = 8 << 10

    func startStream(_ task: ConnectionTask, _ plan: StreamPlan) {
        if let bufferEvent = task.bufferEvent {
            var size = EventLoop.streamSendBufferBytes
            setsockopt(bufferevent_getfd(bufferEvent), SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        startReply(task, contentLength: nil)
        let stream = EventStream(plan: plan, catalog: configuration.catalog, now: EventLoop.monotonicMilliseconds(),
                                 maximumUnflushedBytes: configuration.maximumStreamBacklogBytes)
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
