import CHeaderLines
import CLibevent

/// Every client connection of one server, watched (see `ConnectionWatch`) so a request that trickles in for
/// longer than `requestReadTimeoutSeconds` ends its connection, however steadily its bytes arrive, and so does a
/// connection idle for `idleTimeoutSeconds` (0: never). Used on its loop thread only.
final class ConnectionRegistry {
    /// How often the sweep looks at every connection: also how long a closed connection's socket may outlive it.
    static let sweepMilliseconds = 250

    private let loop: EventLoop
    private let requestReadTimeoutSeconds: Int
    private let idleTimeoutSeconds: Int
    private var connections: [OpaquePointer: ConnectionWatch] = [:]
    /// The same watches by socket number, which every request reads: an array index where the dictionary hashed a
    /// pointer. An entry is checked against its bufferevent, since a number is reused once its socket is closed.
    /// One thread, and no access overlaps another: the run-time exclusivity check is left out of every request's read.
    @exclusivity(unchecked) private var bySocket: [ConnectionWatch?] = []
    private var sweep: OpaquePointer?

    /// Decides a request's upload rate from its head, for each connection's watch.
    private let uploadRate: (UnsafeRawBufferPointer) -> (bytesPerSecond: Int, bodyBytes: Int)?

    init(loop: EventLoop, requestReadTimeoutSeconds: Int, idleTimeoutSeconds: Int,
         uploadRate: @escaping (UnsafeRawBufferPointer) -> (bytesPerSecond: Int, bodyBytes: Int)?) {
        self.loop = loop
        self.requestReadTimeoutSeconds = requestReadTimeoutSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.uploadRate = uploadRate
    }

    /// evhttp's bufferevent factory: one socket bufferevent per connection (a TLS one when `tls` is given), with a
    /// 256 KiB single write (replies over libevent's default 16 KiB otherwise leave a small tail segment that Nagle
    /// and delayed ACK hold for ~40 ms, performance.md), watched from birth.
    func makeBufferEvent(tls: ServerTLSContext?) -> OpaquePointer? {
        guard let bufferEvent = tls.map({ $0.makeBufferEvent(base: loop.base) })
            ?? bufferevent_socket_new(loop.base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            return nil
        }
        bufferevent_set_max_single_write(bufferEvent, 256 << 10)
        let watch = ConnectionWatch(bufferEvent: bufferEvent, isSecure: tls != nil, uploadRate: uploadRate)
        guard watch.start() else {
            bufferevent_free(bufferEvent)
            return nil
        }
        connections[bufferEvent] = watch
        startSweep()
        return bufferEvent
    }

    /// Called for each complete request, before it is answered; returns when its first byte arrived, if known, and
    /// whether it came over TLS.
    func requestArrived(_ request: OpaquePointer) -> (startedAt: Double?, isSecure: Bool) {
        guard let connection = evhttp_request_get_connection(request),
              let bufferEvent = evhttp_connection_get_bufferevent(connection),
              let watch = watch(of: bufferEvent) else { return (nil, false) }
        return (watch.requestArrived(), watch.isSecure)
    }

    /// A delivery took the connection from evhttp: its watch stops timing requests on it.
    func takenOver(_ bufferEvent: OpaquePointer) {
        watch(of: bufferEvent)?.takenOver()
    }

    private func watch(of bufferEvent: OpaquePointer) -> ConnectionWatch? {
        let socket = Int(bufferevent_getfd(bufferEvent))
        if socket >= 0, socket < bySocket.count, let watch = bySocket[socket], watch.bufferEvent == bufferEvent {
            return watch
        }
        guard let watch = connections[bufferEvent] else { return nil }
        if socket >= 0, socket < 1 << 20 {
            if socket >= bySocket.count { bySocket += Array(repeating: nil, count: socket + 1 - bySocket.count) }
            bySocket[socket] = watch
        }
        return watch
    }

    /// Drops a released watch from `bySocket`, unless its number already belongs to a newer connection.
    private func forget(_ watch: ConnectionWatch) {
        let socket = Int(bufferevent_getfd(watch.bufferEvent))
        if socket >= 0, socket < bySocket.count, bySocket[socket] === watch { bySocket[socket] = nil }
    }

    private func startSweep() {
        guard sweep == nil else { return }
        sweep = loop.makeTimer(repeating: true, argument: Unmanaged.passUnretained(self).toOpaque()) { _, _, argument in
            guard let argument else { return }
            Unmanaged<ConnectionRegistry>.fromOpaque(argument).takeUnretainedValue().sweepConnections()
        }
        loop.arm(sweep, inMicroseconds: ConnectionRegistry.sweepMilliseconds * 1_000)
    }

    /// Drops connections evhttp has freed and closes those whose request (or TLS handshake, which is part of the
    /// first request's arrival) has taken too long to arrive, and those idle too long.
    private func sweepConnections() {
        let now = EventLoop.monotonicMilliseconds()
        let deadline = now - Double(requestReadTimeoutSeconds) * 1_000
        let idleLimit = Double(idleTimeoutSeconds) * 1_000 + Double(ConnectionRegistry.sweepMilliseconds)
        for (bufferEvent, watch) in connections {
            if watch.isReleasedByEvhttp {
                forget(watch)
                watch.release()
                connections[bufferEvent] = nil
            } else if let since = watch.readingSince ?? watch.handshakingSince, since + watch.readAllowance < deadline {
                watch.close()
            } else if idleTimeoutSeconds > 0, watch.hasIdled(at: now, longerThan: idleLimit) {
                watch.close()
            }
        }
        if connections.isEmpty { stopSweep() }
    }

    private func stopSweep() {
        if let sweep {
            event_free(sweep)
            self.sweep = nil
        }
    }

    /// Whether a live connection still has reply bytes queued (shutdown waits for them, up to its grace period).
    var hasUnwrittenReplies: Bool {
        connections.values.contains { !$0.isReleasedByEvhttp && $0.unwrittenBytes > 0 }
    }

    /// At shutdown, after evhttp has freed every connection: drops the last references.
    func releaseAll() {
        for watch in connections.values { watch.release() }
        connections.removeAll()
        bySocket.removeAll()
        stopSweep()
    }
}
