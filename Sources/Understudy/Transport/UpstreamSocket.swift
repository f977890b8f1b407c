import CLibevent
import Foundation

/// A raw connection to the upstream for a relayed WebSocket (`--upstream`): a bufferevent, plain or TLS, whose
/// reads are kept for the socket's next turn and whose events wake it. What to write and when is the session's
/// (`WebSocketRelay`); this only moves bytes. Used on its loop thread only.
final class UpstreamSocket {
    enum State: Equatable {
        case connecting
        case connected
        /// The connection is over: `failure` says why when it failed, nil when the upstream closed it.
        case ended(failure: String?)
    }

    private(set) var state = State.connecting
    /// Monotonic milliseconds when it was opened.
    let openedAt: Double
    private var bufferEvent: OpaquePointer?
    private(set) var received: [UInt8] = []
    /// Written before the connection was made, sent once it is.
    private var waiting: [UInt8] = []
    private let describe: (OpaquePointer) -> String?
    /// Wakes the socket's delivery; set by its owner.
    var waker: DeliveryWaker?
    /// Freed once what was written has gone (`close`).
    private var closing = false
    /// Itself, while a closing connection's last bytes go: the session that owned it has let go, and libevent's
    /// callbacks hold it unretained.
    private var keptUntilFlushed: UpstreamSocket?
    /// How long a closing connection's last bytes may take.
    static let closingTimeoutSeconds = 5

    /// Connects `bufferEvent` (made by the upstream's client, plain or TLS) to `host`:`port`, resolving the name
    /// with `dns`; `describe` names a TLS failure.
    init(bufferEvent: OpaquePointer, dns: OpaquePointer?, host: String, port: Int,
         describe: @escaping (OpaquePointer) -> String?) {
        self.bufferEvent = bufferEvent
        self.describe = describe
        openedAt = EventLoop.monotonicMilliseconds()
        let argument = Unmanaged.passUnretained(self).toOpaque()
        bufferevent_setcb(bufferEvent, { _, argument in
            guard let argument else { return }
            Unmanaged<UpstreamSocket>.fromOpaque(argument).takeUnretainedValue().readable()
        }, { _, argument in
            guard let argument else { return }
            Unmanaged<UpstreamSocket>.fromOpaque(argument).takeUnretainedValue().drained()
        }, { _, events, argument in
            guard let argument else { return }
            Unmanaged<UpstreamSocket>.fromOpaque(argument).takeUnretainedValue().happened(events)
        }, argument)
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
        if bufferevent_socket_connect_hostname(bufferEvent, dns, AF_UNSPEC, host, Int32(port)) != 0 {
            end(failure: "could not connect to \(host):\(port)")
        }
    }

    deinit {
        free()
    }

    /// What the upstream sent has been read (`received`): emptied for the next read, in the same storage.
    func receivedTaken() {
        readTaken(&received)
    }

    /// Sends `bytes` (once connected).
    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !closing else { return }
        guard state == .connected, let bufferEvent else {
            if state == .connecting { waiting += bytes }
            return
        }
        _ = bytes.withUnsafeBytes { bufferevent_write(bufferEvent, $0.baseAddress, $0.count) }
    }

    /// Ends the connection once what was written has gone (at once when nothing is waiting).
    func close() {
        guard !closing else { return }
        closing = true
        waker = nil
        guard state == .connected, let bufferEvent, let output = bufferevent_get_output(bufferEvent),
              evbuffer_get_length(output) > 0 else {
            return free()
        }
        keptUntilFlushed = self
        bufferevent_disable(bufferEvent, Int16(EV_READ))
        var timeout = timeval(tv_sec: UpstreamSocket.closingTimeoutSeconds, tv_usec: 0)
        bufferevent_set_timeouts(bufferEvent, nil, &timeout)
    }

    private func readable() {
        guard let bufferEvent, let input = bufferevent_get_input(bufferEvent) else { return }
        let count = evbuffer_get_length(input)
        guard count > 0 else { return }
        guard !closing else {
            evbuffer_drain(input, count)
            return
        }
        drainEvbuffer(input, into: &received)
        waker?.wake()
    }

    /// Everything written has gone: a closing connection can be freed.
    private func drained() {
        if closing { free() }
    }

    private func happened(_ events: Int16) {
        if events & Int16(BEV_EVENT_CONNECTED) != 0 {
            state = .connected
            let bytes = waiting
            waiting = []
            write(bytes)
            return
        }
        guard events & Int16(BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT) != 0 else { return }
        let code = errno
        if events & Int16(BEV_EVENT_EOF) != 0 {
            end(failure: nil)
        } else if let bufferEvent, let reason = describe(bufferEvent) {
            end(failure: reason)
        } else if let bufferEvent, case let dnsError = bufferevent_socket_get_dns_error(bufferEvent), dnsError != 0 {
            end(failure: "could not resolve its name: " + String(cString: evutil_gai_strerror(dnsError)).lowercased())
        } else if events & Int16(BEV_EVENT_TIMEOUT) != 0 {
            end(failure: "its connection timed out")
        } else {
            let reason = String(cString: strerror(code)).lowercased()
            end(failure: state == .connecting ? "could not connect: \(reason)" : "the connection failed: \(reason)")
        }
    }

    private func end(failure: String?) {
        if case .ended = state { return }
        state = .ended(failure: failure)
        if let bufferEvent { bufferevent_disable(bufferEvent, Int16(EV_READ | EV_WRITE)) }
        if closing { return free() }
        waker?.wake()
    }

    private func free() {
        defer { keptUntilFlushed = nil }
        guard let bufferEvent else { return }
        self.bufferEvent = nil
        bufferevent_setcb(bufferEvent, nil, nil, nil, nil)
        bufferevent_free(bufferEvent)
    }
}
