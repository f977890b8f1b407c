import CLibevent
import Foundation
import UnderstudyLocking

/// One server's evhttp instance and everything around it: the listener, the connections, the reply writer and
/// the loop they run on. Reads each request once, asks the pipeline for its plan and hands the plan to the
/// writer; nothing outside Transport calls libevent.
///
/// `@unchecked Sendable`: `start`, `goOffline` and `shutDown` are called from other threads and only submit work
/// to the loop; every other member runs on the loop thread.
final class HTTPTransport: @unchecked Sendable {
    let loop: EventLoop
    private let http: OpaquePointer
    private let listener: Listener
    /// The certificate TLS connections present (nil: plain http only).
    private let tls: ServerTLSContext?
    /// HTTPS on a port of its own beside plain http (`TLSSettings.port`): a second evhttp, so each knows by its
    /// bufferevent factory which kind of connection it accepts, sharing everything else.
    private let secure: (http: OpaquePointer, listener: Listener)?
    private let connections: ConnectionRegistry
    private let writer: ReplyWriter
    private let pipeline: Pipeline
    /// The upstream's client, when requests are forwarded (`--upstream`).
    private let upstreamClient: UpstreamClient?
    private let configuration: UnderstudyServer.Configuration
    private var isShuttingDown = false
    private var shutdownTimer: OpaquePointer?
    private var shutdownDeadline = 0.0

    /// The port bound (the real one when 0 was asked for).
    var port: Int { listener.port }
    /// The port serving HTTPS, if any: `port` itself, or the one of its own.
    var securePort: Int? { secure?.listener.port ?? (tls != nil ? listener.port : nil) }
    /// Whether `port` serves plain http.
    var servesPlainHTTP: Bool { tls == nil || secure != nil }

    init(configuration: UnderstudyServer.Configuration, pipeline: Pipeline) throws(ServerError) {
        let tls = try configuration.tls.map { settings throws(ServerError) in try HTTPTransport.context(for: settings, configuration) }
        let loop = try EventLoop()
        var made: [OpaquePointer] = []
        func cleanUp() {
            made.forEach { evhttp_free($0) }
            loop.waitAndFree(running: false)
        }
        func bound(port: Int) throws(ServerError) -> (http: OpaquePointer, listener: Listener) {
            guard let http = evhttp_new(loop.base) else {
                throw ServerError(kind: .listenerFailed, description: "libevent could not create an HTTP server")
            }
            made.append(http)
            return (http, try Listener(loop: loop, http: http, host: configuration.host, port: port))
        }
        let upstreamClient: UpstreamClient?
        do {
            (http, listener) = try bound(port: configuration.port)
            secure = try configuration.tls?.port.map { port throws(ServerError) in try bound(port: port) }
            upstreamClient = try configuration.upstream.map { upstream throws(ServerError) in
                do {
                    return try UpstreamClient(upstream: upstream, base: loop.base)
                } catch {
                    throw ServerError(kind: .invalidConfiguration, description: "cannot reach \(upstream.url) over TLS: \(error)")
                }
            }
        } catch {
            cleanUp()
            throw error
        }
        self.loop = loop
        self.tls = tls
        self.configuration = configuration
        self.pipeline = pipeline
        self.upstreamClient = upstreamClient
        connections = ConnectionRegistry(loop: loop, requestReadTimeoutSeconds: configuration.requestReadTimeoutSeconds,
                                         idleTimeoutSeconds: configuration.idleTimeoutSeconds) {
            [pipeline] head in pipeline.uploadRate(forHead: head)
        }
        writer = ReplyWriter(loop: loop) { [pipeline] in
            pipeline.completed($0, $1)
        }
        writer.connectionTakenOver = { [connections] in connections.takenOver($0) }
        configure(http, secure: tls != nil && secure == nil)
        if let secure { configure(secure.http, secure: true) }
        writer.cannedHead.servers = [http] + (secure.map { [$0.http] } ?? [])
    }

    /// The ports of its origins by scheme: `http`, `https` or both (`--tls-port`).
    var originPorts: [String: Int] {
        var ports = servesPlainHTTP ? ["http": listener.port] : [:]
        ports["https"] = securePort
        return ports
    }

    /// The TLS context the settings describe; a certificate that cannot be made or read stops the start.
    private static func context(for settings: TLSSettings,
                                _ configuration: UnderstudyServer.Configuration) throws(ServerError) -> ServerTLSContext {
        do {
            return try ServerTLSContext(settings: settings, hostNames: configuration.certificateNames)
        } catch {
            throw ServerError(kind: .invalidConfiguration, description: "cannot serve HTTPS: \(error.description)")
        }
    }

    private func configure(_ http: OpaquePointer, secure: Bool) {
        let methods = EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_POST.rawValue | EVHTTP_REQ_HEAD.rawValue
            | EVHTTP_REQ_PUT.rawValue | EVHTTP_REQ_DELETE.rawValue | EVHTTP_REQ_OPTIONS.rawValue
            | EVHTTP_REQ_PATCH.rawValue | EVHTTP_REQ_TRACE.rawValue
        evhttp_set_allowed_methods(http, UInt16(methods))
        // evhttp's own default, set from a literal of ours, which a canned reply restores after clearing it.
        evhttp_set_default_content_type(http, UnsafeRawPointer(CannedHead.defaultContentType.utf8Start)
                                                 .assumingMemoryBound(to: CChar.self))
        evhttp_set_max_headers_size(http, Int(configuration.maximumHeaderSize))
        // evhttp refuses a body over the limit as soon as its Content-Length (or a chunk size) says so, before
        // buffering it, with a 413 that leaves as JSON (ConnectionWatch). Lingering close reads and drops the
        // rest of the body first, so the client gets to read the 413 instead of a reset.
        evhttp_set_max_body_size(http, Int(configuration.maximumBodySize))
        evhttp_set_flags(http, EVHTTP_SERVER_LINGERING_CLOSE)
        // No evhttp timeout: the connections' sweep keeps the idle timeout (ConnectionWatch), because a timeout on
        // the bufferevent's events updates a timer each time evhttp enables one, about three times a request.
        evhttp_set_gencb(http, { request, argument in
            guard let request, let argument else { return }
            Unmanaged<HTTPTransport>.fromOpaque(argument).takeUnretainedValue().handle(request)
        }, Unmanaged.passUnretained(self).toOpaque())
        // TCP_NODELAY is set on the listening socket; the write size and the slow-request watch per connection.
        if secure {
            evhttp_set_bevcb(http, { _, argument in
                guard let argument else { return nil }
                let transport = Unmanaged<HTTPTransport>.fromOpaque(argument).takeUnretainedValue()
                return transport.connections.makeBufferEvent(tls: transport.tls)
            }, Unmanaged.passUnretained(self).toOpaque())
        } else {
            evhttp_set_bevcb(http, { _, argument in
                guard let argument else { return nil }
                return Unmanaged<HTTPTransport>.fromOpaque(argument).takeUnretainedValue().connections.makeBufferEvent(tls: nil)
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// Serves on a new loop thread.
    func start() {
        loop.run(name: "understudy-loop-\(port)")
    }

    /// evhttp's callback for a complete request: read it, plan it, write it.
    private func handle(_ request: OpaquePointer) {
        // Timed from the request's first byte: a request that waited behind a burst of others is not delayed,
        // nor journaled as quicker, by the time it spent waiting.
        let connection = connections.requestArrived(request)
        let incoming = HTTPRequest(request, startedAt: connection.startedAt ?? EventLoop.monotonicMilliseconds(),
                                   arrivedAt: configuration.clock(), isSecure: connection.isSecure)
        serve(request, incoming)
    }

    private func serve(_ request: OpaquePointer, _ incoming: HTTPRequest, indexesReady: Bool = false) {
        switch pipeline.plan(for: incoming, stopping: isShuttingDown, indexesReady: indexesReady) {
        case .reply(let plan):
            if plan.dropsUnreadBody { discardUnreadBody(of: request) }
            writer.carryOut(plan, pipeline.delivery(for: plan, clientAddress: HTTPTransport.peerAddress(of: request)),
                            on: request)
        case .awaitingIndexes(let groundwork):
            // The writer holds the request, as it holds a delayed reply, until its indexes are built.
            writer.hold(until: groundwork) { [self] in serve(request, incoming, indexesReady: true) }
        }
    }

    /// Drops what has arrived of an unread body; the plan closes the connection after this reply, so nothing
    /// that arrives later is parsed either.
    private func discardUnreadBody(of request: OpaquePointer) {
        if let connection = evhttp_request_get_connection(request),
           let bufferEvent = evhttp_connection_get_bufferevent(connection),
           let input = bufferevent_get_input(bufferEvent) {
            evbuffer_drain(input, evbuffer_get_length(input))
        }
    }

    /// Stops the loop (see `UnderstudyServer.stop`) and frees everything; returns when the thread has ended.
    ///
    /// Stops accepting, sends the replies held by a delay, ends endless deliveries and hangs, waits up to
    /// `shutdownGraceSeconds` for replies still being written (paced ones included), then closes every connection.
    func shutDown() {
        loop.submit { [self] in
            isShuttingDown = true
            listener.close()
            secure?.listener.close()
            writer.flushPendingReplies()
            writer.endAllTasks()
            shutdownDeadline = EventLoop.monotonicMilliseconds() + configuration.shutdownGraceSeconds * 1_000
            shutdownTimer = loop.makeTimer(repeating: true, argument: Unmanaged.passUnretained(self).toOpaque()) { _, _, argument in
                guard let argument else { return }
                Unmanaged<HTTPTransport>.fromOpaque(argument).takeUnretainedValue().finishShutdownWhenDrained()
            }
            loop.arm(shutdownTimer, inMicroseconds: 5_000)
            finishShutdownWhenDrained()
        }
        loop.waitAndFree { [self] in
            if let shutdownTimer { event_free(shutdownTimer) }
        }
    }

    private func finishShutdownWhenDrained() {
        // Drained when every reply has left: no task still writing, no connection with bytes still queued.
        let drained = writer.tasks.isEmpty && !connections.hasUnwrittenReplies && !writer.isAwaitingIndexes
        guard drained || EventLoop.monotonicMilliseconds() >= shutdownDeadline else { return }
        if let shutdownTimer { event_del(shutdownTimer) }
        writer.stopResumingAwaited()
        writer.closeAllTasks()
        evhttp_free(http)
        if let secure { evhttp_free(secure.http) }
        connections.releaseAll()
        upstreamClient?.shutDown()
        loop.stop()
    }
}

extension HTTPTransport: TransportControls {
    var isOffline: Bool { listener.isOffline }

    var offlineMillisecondsLeft: Double {
        listener.isOffline ? max(0, listener.offlineUntil - EventLoop.monotonicMilliseconds()) : 0
    }

    var heldReplies: Int { writer.heldReplies }

    var tlsFaults: TLSFaultQueue? { tls?.faults }

    func goOffline(forMilliseconds milliseconds: Int) {
        listener.goOffline(forMilliseconds: milliseconds)
        secure?.listener.goOffline(forMilliseconds: milliseconds)
    }

    func sendUpstream(_ request: UpstreamRequest) -> UpstreamExchange {
        guard let upstreamClient else { return .unsent("no upstream is configured", at: EventLoop.monotonicMilliseconds()) }
        return upstreamClient.send(request)
    }

    func openUpstreamSocket() -> UpstreamSocket? {
        upstreamClient?.openSocket()
    }

    var loopSubmitter: @Sendable (@escaping @Sendable () -> Void) -> Void {
        { [loop] work in loop.submit(work) }
    }

    /// The client's address, for `X-Forwarded-For`.
    static func peerAddress(of request: OpaquePointer) -> String? {
        guard let connection = evhttp_request_get_connection(request) else { return nil }
        var address: UnsafeMutablePointer<CChar>?
        var port: UInt16 = 0
        evhttp_connection_get_peer(connection, &address, &port)
        return address.map { String(cString: $0) }
    }
}
