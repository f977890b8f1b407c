import CLibevent
import Foundation

/// Forwards requests to the upstream with libevent's own HTTP client, on the server's loop: each request gets a
/// kept-alive connection of its own from a pool (an evhttp connection carries one request at a time), and its
/// reply is read into an `UpstreamExchange` as it arrives. Names are resolved with evdns, so the loop never
/// blocks. Used on its loop thread only.
final class UpstreamClient {
    let upstream: Upstream
    private let base: OpaquePointer
    private var dns: OpaquePointer?
    /// The TLS client context, for an https upstream.
    private let tls: UpstreamTLS?
    /// Connections free for the next request.
    private var idle: [OpaquePointer] = []
    /// Every connection made, for shutdown.
    private var made: Set<OpaquePointer> = []
    static let maximumIdleConnections = 64

    /// Throws when an https upstream's CA file cannot be read.
    init(upstream: Upstream, base: OpaquePointer) throws(TLSError) {
        self.upstream = upstream
        self.base = base
        tls = upstream.isSecure
            ? try UpstreamTLS(verification: upstream.verifiesCertificate ? .verified(extraCAFile: upstream.certificateAuthorityFile) : .off)
            : nil
    }

    /// Sends `request` upstream; the exchange fills in as the reply arrives.
    func send(_ request: UpstreamRequest) -> UpstreamExchange {
        let exchange = UpstreamExchange(startedAt: EventLoop.monotonicMilliseconds())
        trimIdleConnections()
        guard let connection = idle.popLast() ?? makeConnection() else {
            exchange.failed(UpstreamFailure(kind: .unreachable, detail: "no connection could be made"),
                            at: EventLoop.monotonicMilliseconds())
            return exchange
        }
        let call = UpstreamCall(exchange: exchange, connection: connection, client: self)
        guard let outgoing = call.makeRequest(request) else {
            idle.append(connection)
            exchange.failed(UpstreamFailure(kind: .unreachable, detail: "libevent could not make the request"),
                            at: EventLoop.monotonicMilliseconds())
            return exchange
        }
        let type = UpstreamClient.commandType(request.method)
        if evhttp_make_request(connection, outgoing, type, request.target) != 0, !call.isOver {
            call.failBeforeSending(errno: errno)
        }
        return exchange
    }

    /// A raw connection for a relayed WebSocket, connecting now; nil when libevent could not make one.
    func openSocket() -> UpstreamSocket? {
        resolveNamesIfNeeded()
        let options = Int32(BEV_OPT_CLOSE_ON_FREE.rawValue | BEV_OPT_DEFER_CALLBACKS.rawValue)
        let made: OpaquePointer?
        if let tls {
            made = try? tls.makeBufferEvent(base: base, host: upstream.host)
        } else {
            made = bufferevent_socket_new(base, -1, options)
        }
        guard let bufferEvent = made else { return nil }
        return UpstreamSocket(bufferEvent: bufferEvent, dns: dns, host: upstream.host, port: upstream.port,
                              describe: UpstreamTLS.failureReason(of:))
    }

    /// A connection is free again once its request is over (evhttp reconnects one the upstream closed).
    func release(_ connection: OpaquePointer) {
        idle.append(connection)
    }

    /// Runs `work` on the loop soon, outside the libevent callback that asked for it.
    func later(_ work: @escaping () -> Void) {
        let box = Unmanaged.passRetained(DeferredWork(work)).toOpaque()
        var now = timeval()
        event_base_once(base, -1, Int16(EV_TIMEOUT), { _, _, argument in
            guard let argument else { return }
            Unmanaged<DeferredWork>.fromOpaque(argument).takeRetainedValue().work()
        }, box, &now)
    }

    /// Frees every connection; the loop is stopping.
    func shutDown() {
        for connection in made { evhttp_connection_free(connection) }
        made.removeAll()
        idle.removeAll()
        if let dns { evdns_base_free(dns, 0) }
        dns = nil
    }

    private func resolveNamesIfNeeded() {
        if dns == nil, !UpstreamClient.isNumericAddress(upstream.host) {
            dns = evdns_base_new(base, EVDNS_BASE_INITIALIZE_NAMESERVERS)
        }
    }

    private func makeConnection() -> OpaquePointer? {
        resolveNamesIfNeeded()
        let opened: OpaquePointer?
        if let tls {
            // evhttp owns the bufferevent from here, and frees it (and its SSL) with the connection.
            guard let bufferEvent = try? tls.makeBufferEvent(base: base, host: upstream.host) else { return nil }
            opened = evhttp_connection_base_bufferevent_new(base, dns, bufferEvent, upstream.host, UInt16(upstream.port))
        } else {
            opened = evhttp_connection_base_new(base, dns, upstream.host, UInt16(upstream.port))
        }
        guard let connection = opened else { return nil }
        evhttp_connection_set_timeout(connection, Int32(upstream.timeoutSeconds))
        evhttp_connection_set_retries(connection, 0)
        made.insert(connection)
        return connection
    }

    /// Idle connections past the limit are freed here, never inside the callback that handed them back.
    private func trimIdleConnections() {
        while idle.count > UpstreamClient.maximumIdleConnections, let connection = idle.popLast() {
            made.remove(connection)
            evhttp_connection_free(connection)
        }
    }

    static func isNumericAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    static func commandType(_ method: String) -> evhttp_cmd_type {
        switch method {
        case "POST": EVHTTP_REQ_POST
        case "HEAD": EVHTTP_REQ_HEAD
        case "PUT": EVHTTP_REQ_PUT
        case "DELETE": EVHTTP_REQ_DELETE
        case "OPTIONS": EVHTTP_REQ_OPTIONS
        case "TRACE": EVHTTP_REQ_TRACE
        case "PATCH": EVHTTP_REQ_PATCH
        default: EVHTTP_REQ_GET
        }
    }
}

/// A closure run once by `event_base_once`.
private final class DeferredWork {
    let work: () -> Void

    init(_ work: @escaping () -> Void) {
        self.work = work
    }
}
