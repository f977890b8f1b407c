import CLibevent
import Foundation

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
    private let connections: ConnectionRegistry
    private let writer: ReplyWriter
    private let pipeline: Pipeline
    private let configuration: UnderstudyServer.Configuration
    private var isShuttingDown = false
    private var shutdownTimer: OpaquePointer?
    private var shutdownDeadline = 0.0

    /// The port bound (the real one when 0 was asked for).
    var port: Int { listener.port }

    init(configuration: UnderstudyServer.Configuration, pipeline: Pipeline) throws(ServerError) {
        let loop = try EventLoop()
        guard let http = evhttp_new(loop.base) else {
            loop.waitAndFree(running: false)
            throw ServerError(kind: .listenerFailed, description: "libevent could not create an HTTP server")
        }
        do {
            listener = try Listener(loop: loop, http: http, host: configuration.host, port: configuration.port)
        } catch {
            evhttp_free(http)
            loop.waitAndFree(running: false)
            throw error
        }
        self.loop = loop
        self.http = http
        self.configuration = configuration
        self.pipeline = pipeline
        connections = ConnectionRegistry(loop: loop, requestReadTimeoutSeconds: configuration.requestReadTimeoutSeconds) {
            [pipeline] head in pipeline.uploadRate(forHead: head)
        }
        writer = ReplyWriter(loop: loop) { [pipeline] in
            pipeline.completed($0, $1)
        }
        configureHTTP()
        pipeline.attach(self, configuration: configuration, port: listener.port)
    }

    private func configureHTTP() {
        let methods = EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_POST.rawValue | EVHTTP_REQ_HEAD.rawValue
            | EVHTTP_REQ_PUT.rawValue | EVHTTP_REQ_DELETE.rawValue | EVHTTP_REQ_OPTIONS.rawValue
            | EVHTTP_REQ_PATCH.rawValue | EVHTTP_REQ_TRACE.rawValue
        evhttp_set_allowed_methods(http, UInt16(methods))
        evhttp_set_max_headers_size(http, Int(configuration.maximumHeaderSize))
        // evhttp refuses a body over the limit as soon as its Content-Length (or a chunk size) says so, before
        // buffering it, with a 413 that leaves as JSON (ConnectionRegistry). Lingering close reads and drops the
        // rest of the body first, so the client gets to read the 413 instead of a reset.
        evhttp_set_max_body_size(http, Int(configuration.maximumBodySize))
        evhttp_set_flags(http, EVHTTP_SERVER_LINGERING_CLOSE)
        evhttp_set_timeout(http, Int32(configuration.idleTimeoutSeconds))
        evhttp_set_gencb(http, { request, argument in
            guard let request, let argument else { return }
            Unmanaged<HTTPTransport>.fromOpaque(argument).takeUnretainedValue().handle(request)
        }, Unmanaged.passUnretained(self).toOpaque())
        // TCP_NODELAY is set on the listening socket; the write size and the slow-request watch per connection.
        evhttp_set_bevcb(http, { _, argument in
            guard let argument else { return nil }
            return Unmanaged<HTTPTransport>.fromOpaque(argument).takeUnretainedValue().connections.makeBufferEvent()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Serves on a new loop thread.
    func start() {
        loop.run(name: "understudy-loop-\(port)")
    }

    /// evhttp's callback for a complete request: read it, plan it, write it.
    private func handle(_ request: OpaquePointer) {
        // Timed from the request's first byte: a request that waited behind a burst of others is not delayed,
        // nor journaled as quicker, by the time it spent waiting.
        let startedAt = connections.requestArrived(request) ?? EventLoop.monotonicMilliseconds()
        let incoming = HTTPRequest(request, startedAt: startedAt, arrivedAt: configuration.clock())
        let plan = pipeline.plan(for: incoming, stopping: isShuttingDown)
        if plan.dropsUnreadBody { discardUnreadBody(of: request) }
        writer.carryOut(plan, pipeline.delivery(for: plan), on: request)
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
        let drained = writer.tasks.isEmpty && !connections.hasUnwrittenReplies
        guard drained || EventLoop.monotonicMilliseconds() >= shutdownDeadline else { return }
        if let shutdownTimer { event_del(shutdownTimer) }
        writer.closeAllTasks()
        evhttp_free(http)
        connections.releaseAll()
        loop.stop()
    }
}

extension HTTPTransport: TransportControls {
    var isOffline: Bool { listener.isOffline }

    var offlineMillisecondsLeft: Double {
        listener.isOffline ? max(0, listener.offlineUntil - EventLoop.monotonicMilliseconds()) : 0
    }

    var heldReplies: Int { writer.heldReplies }

    func goOffline(forMilliseconds milliseconds: Int) {
        listener.goOffline(forMilliseconds: milliseconds)
    }
}
