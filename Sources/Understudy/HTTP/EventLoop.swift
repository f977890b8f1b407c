import CHeaderLines
import CLibevent
import Foundation
import UnderstudyLocking

/// One server's libevent base, evhttp instance, listener and thread.
///
/// `@unchecked Sendable`: everything but `submit` and `shutDown` runs on the loop thread only (callbacks from
/// libevent); those two hand work to the loop through `inbox`, a Locked, and `event_active`, which libevent
/// makes thread-safe once `evthread_use_pthreads` has run.
final class EventLoop: @unchecked Sendable {
    let base: OpaquePointer
    let http: OpaquePointer
    /// The listening socket, owned by evhttp once bound (nil while offline or stopped).
    var boundSocket: OpaquePointer?
    var offlineTimer: OpaquePointer?
    var offlineUntil = 0.0
    /// A bound, non-listening socket that keeps the port while offline.
    var portReservation: Int32?
    var isShuttingDown = false
    private var wakeEvent: OpaquePointer?
    let port: Int
    let configuration: UnderstudyServer.Configuration
    let router: Router
    let faults: FaultController
    let journal: Journal
    let remoteControl: RemoteControlPolicy
    /// Replies that outlive their callback (paced, broken, hung, streamed), keyed by identity.
    var tasks: [ObjectIdentifier: ConnectionTask] = [:]
    /// Stream events by seed and id (see `eventBytes`).
    var eventCache: [EventKey: SharedEvent] = [:]
    /// Fault specs sent per request, parsed once (see `parsedSpec`).
    var specCache: [String: FaultSpec] = [:]
    /// Replies to fault headers that ask only for an error status, by header text (see `cannedFault`).
    var cannedFaults: [String: CannedReply] = [:]
    /// Replies waiting on a delay timer, keyed by their identity.
    var pending: [ObjectIdentifier: PendingReply] = [:]
    var rateWindow = RateLimitWindow()
    /// Every client connection, by its bufferevent (see `ConnectionWatch`).
    var connections: [OpaquePointer: ConnectionWatch] = [:]
    var connectionSweep: OpaquePointer?
    /// The buffers canned replies' heads are written from (see `CannedHead`).
    let cannedHead = CannedHead()
    private var shutdownTimer: OpaquePointer?
    private var shutdownDeadline = 0.0

    private let inbox = Locked<[@Sendable () -> Void]>([])
    private let finished = DispatchSemaphore(value: 0)

    /// libevent must be told to lock its structures before any base exists; SIGPIPE must not kill the process
    /// when a client goes away mid-reply.
    private static let processSetUp: Bool = {
        signal(SIGPIPE, SIG_IGN)
        // Streams and slow clients each hold a descriptor; use all the process may have.
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        if getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(resource, &limit)
        }
        return evthread_use_pthreads() == 0
    }()

    /// Whether evhttp's reply heads go through the fast line writer (`CHeaderLines`): true on Linux; elsewhere
    /// libevent formats them itself, with the same bytes.
    static var writesHeadLinesDirectly: Bool {
        understudy_header_lines_active() != 0
    }

    init(configuration: UnderstudyServer.Configuration, faults: FaultController, journal: Journal) throws(ServerError) {
        _ = EventLoop.processSetUp
        self.configuration = configuration
        self.faults = faults
        self.journal = journal
        self.remoteControl = RemoteControlPolicy(host: configuration.host, token: configuration.adminToken)
        self.router = Router(catalog: configuration.catalog, tokens: TokenService(secret: configuration.tokenSecret),
                             now: configuration.clock)
        guard let base = EventLoop.makeBase() else {
            throw ServerError(kind: .listenerFailed, description: "libevent could not create an event base")
        }
        guard let http = evhttp_new(base) else {
            event_base_free(base)
            throw ServerError(kind: .listenerFailed, description: "libevent could not create an HTTP server")
        }
        self.base = base
        self.http = http
        let bound: (listener: OpaquePointer, port: Int)
        do {
            bound = try EventLoop.bind(host: configuration.host, port: configuration.port, base: base)
        } catch {
            evhttp_free(http)
            event_base_free(base)
            throw error
        }
        self.port = bound.port
        configureHTTP()
        boundSocket = evhttp_bind_listener(http, bound.listener)
        wakeEvent = event_new(base, -1, 0, { _, _, argument in
            guard let argument else { return }
            Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().drainInbox()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// An event base with precise timers: by default libevent reads CLOCK_MONOTONIC_COARSE on Linux, which moves
    /// in 4 ms steps, so a 300 ms delay could end after 296 ms.
    private static func makeBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return nil }
        defer { event_config_free(config) }
        event_config_set_flag(config, Int32(EVENT_BASE_FLAG_PRECISE_TIMER.rawValue))
        return event_base_new_with_config(config)
    }

    private func configureHTTP() {
        let methods = EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_POST.rawValue | EVHTTP_REQ_HEAD.rawValue
            | EVHTTP_REQ_PUT.rawValue | EVHTTP_REQ_DELETE.rawValue | EVHTTP_REQ_OPTIONS.rawValue
            | EVHTTP_REQ_PATCH.rawValue | EVHTTP_REQ_TRACE.rawValue
        evhttp_set_allowed_methods(http, UInt16(methods))
        evhttp_set_max_headers_size(http, Int(configuration.maximumHeaderSize))
        // evhttp refuses a body over the limit as soon as its Content-Length (or a chunk size) says so, before
        // buffering it, with a JSON 413 (CHeaderLines). Lingering close reads and drops the rest of the body
        // first, so the client gets to read the 413 instead of a reset.
        evhttp_set_max_body_size(http, Int(configuration.maximumBodySize))
        evhttp_set_flags(http, EVHTTP_SERVER_LINGERING_CLOSE)
        evhttp_set_timeout(http, Int32(configuration.idleTimeoutSeconds))
        evhttp_set_gencb(http, { request, argument in
            guard let request, let argument else { return }
            Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().handle(request)
        }, Unmanaged.passUnretained(self).toOpaque())
        // TCP_NODELAY is set on the listening socket; the write size and the slow-request watch per connection.
        evhttp_set_bevcb(http, { _, argument in
            guard let argument else { return nil }
            return Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().makeConnectionBufferEvent()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs the loop on a new thread.
    func run() {
        let thread = Thread { [self] in
            event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY)
            finished.signal()
        }
        thread.name = "understudy-loop-\(port)"
        thread.start()
    }

    /// Runs `work` on the loop thread, soon.
    func submit(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.append(work) }
        event_active(wakeEvent, 0, 0)
    }

    private func drainInbox() {
        let work = inbox.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
        for item in work { item() }
    }

    /// Stops the loop (see `UnderstudyServer.stop`) and frees everything; returns when the thread has ended.
    ///
    /// Stops accepting, sends the replies held by a delay, ends streams and hangs, waits up to
    /// `shutdownGraceSeconds` for replies still being written (paced ones included), then closes every connection.
    func shutDown() {
        submit { [self] in
            isShuttingDown = true
            if let offlineTimer {
                event_free(offlineTimer)
                self.offlineTimer = nil
            }
            if let portReservation {
                Foundation.close(portReservation)
                self.portReservation = nil
            }
            if let boundSocket {
                evhttp_del_accept_socket(http, boundSocket)
                self.boundSocket = nil
            }
            flushPendingReplies()
            endAllTasks()
            shutdownDeadline = EventLoop.monotonicMilliseconds() + configuration.shutdownGraceSeconds * 1_000
            shutdownTimer = event_new(base, -1, Int16(EV_PERSIST), { _, _, argument in
                guard let argument else { return }
                Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().finishShutdownWhenDrained()
            }, Unmanaged.passUnretained(self).toOpaque())
            arm(shutdownTimer, inMicroseconds: 5_000)
            finishShutdownWhenDrained()
        }
        finished.wait()
        if let shutdownTimer { event_free(shutdownTimer) }
        if let wakeEvent { event_free(wakeEvent) }
        event_base_free(base)
    }

    private func finishShutdownWhenDrained() {
        // Drained when every reply has left: no task still writing, no connection with bytes still queued.
        let drained = tasks.isEmpty && !hasUnwrittenReplies
        guard drained || EventLoop.monotonicMilliseconds() >= shutdownDeadline else { return }
        if let shutdownTimer { event_del(shutdownTimer) }
        closeAllTasks()
        evhttp_free(http)
        releaseAllConnections()
        event_base_loopbreak(base)
    }
}
