import Foundation
import UnderstudyLocking
import UnderstudyOpenAPI
import UnderstudyRecording

/// A running Understudy: a DummyJSON-compatible HTTP/1.1 server on its own libevent thread.
///
/// Start as many as you like in one process; each listens on its own port and loop. Every method is safe to call
/// from any thread.
///
/// ```swift
/// let server = try UnderstudyServer.start()          // 127.0.0.1, a free port
/// defer { server.stop() }
/// let url = server.baseURL.appending(path: "products/1")
/// ```
public final class UnderstudyServer: Sendable {
    /// How a server listens and what it serves.
    public struct Configuration: Sendable {
        /// The address to bind; loopback unless told otherwise.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (read it back from `port`).
        public var port = 0
        /// The data to serve.
        public var catalog: Catalog = .standard
        /// Request bodies over this many bytes get 413.
        public var maximumBodySize = 1 << 20
        /// Request heads over this many bytes are refused by evhttp.
        public var maximumHeaderSize = 64 << 10
        /// Seconds a connection may wait on its client with no byte moving (idle between requests, or stalled
        /// mid-request or mid-reply) before it is closed; 0 keeps idle connections open.
        public var idleTimeoutSeconds = 60
        /// Seconds a request may take to arrive in full, from its first byte: a client trickling its head a byte
        /// at a time (slowloris) is cut off after this, though each byte restarts the idle timeout.
        public var requestReadTimeoutSeconds = 30
        /// How many bytes a stream may have waiting for a reader that stopped reading before it is dropped; with
        /// the small kernel buffer a stream gets, this bounds the memory a stalled reader holds.
        public var maximumStreamBacklogBytes = 256 << 10
        /// On `stop()`, how long replies still being written may take before connections are closed (the command
        /// line's `--grace` defaults to 5 s; in-process servers stop sooner, as test suites start and stop many).
        public var shutdownGraceSeconds = 1.0
        /// The HS256 secret tokens are signed with; fixed by default so tokens survive a restart.
        public var tokenSecret = "understudy-dummyjson-compatible-secret"
        /// Called on the event-loop thread once per reply; keep it quick.
        public var requestLog: (@Sendable (RequestLogEntry) -> Void)?
        /// The seed every random choice (probabilities, jitter, garbage bytes, stream payloads) derives from.
        public var seed: UInt64 = 1
        /// Rules in place from the first request (e.g. from a scenario file).
        public var rules: [FaultRule] = []
        /// Required to inject faults or use the admin API (always when the host is not loopback, where both are
        /// otherwise refused); sent as `X-Understudy-Token`.
        public var adminToken: String?
        /// Further names the admin API answers to in `Host` (`--allow-host`), besides the bound address, `localhost`
        /// and loopback addresses: a name for this machine, when it is reached by one. Any other name is refused, so
        /// that a web page cannot reach the admin API through DNS rebinding.
        public var allowedHosts: [String] = []
        /// How many requests the journal keeps.
        public var journalCapacity = 10_000
        /// How many bytes of requests (headers, path, query, …) the journal keeps; the oldest go first past it.
        /// Header values are kept up to 4 KiB each, so one entry cannot hold a whole 64 KiB head.
        public var journalByteLimit = 32 << 20
        /// A recording to answer every request outside `/__understudy` from, instead of the DummyJSON routes
        /// (`--replay DIR`): load it with `Recording(contentsOf:)`. A request it does not hold gets a JSON 502
        /// naming it and the nearest recordings, with `X-Understudy-Replay: miss`.
        public var replay: Recording?
        /// HTTPS (`--tls`, `--tls-port`): nil serves plain http only.
        public var tls: TLSSettings?
        /// TLS faults set from the first handshake (a scenario's `tlsFaults`), in order; they need `tls`.
        public var tlsFaults: [Fault.TLS] = []
        /// The clock tokens and timestamps use, as seconds since 1970 (replaceable in tests).
        public var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        /// The API to forward every request outside `/__understudy` to, with faults applied on the way back; nil
        /// serves DummyJSON's API from `catalog`.
        public var upstream: Upstream?
        /// An OpenAPI document to answer every request outside `/__understudy` from (`--spec FILE`), instead of the
        /// DummyJSON routes: its examples or data from its schemas, its validation, and state per session. With
        /// `upstream` too, the document checks the upstream's traffic instead (`--upstream URL --spec FILE`): each
        /// violation is reported in `X-Understudy-Violations`, the journal and `/__understudy/violations`.
        public var spec: OpenAPISpec?
        /// Records every exchange forwarded to `upstream` (`--record DIR`), redacted as the writer's options say;
        /// with `replay` too, only the requests the recording misses are forwarded, so only those are recorded.
        public var record: RecordingWriter?

        /// A configuration for `host:port` serving `catalog`, with every other setting at its default.
        public init(host: String = "127.0.0.1", port: Int = 0, catalog: Catalog = .standard) {
            self.host = host
            self.port = port
            self.catalog = catalog
        }
    }

    private let transport: HTTPTransport
    private let recorder: Recorder
    private let spec: MockEngine?
    private let stopped = Locked(false)

    /// The fault rules, sessions and seed; change them from any thread.
    public let faults: FaultController
    /// Every request served, for assertions.
    public let journal: Journal

    /// The port the server listens on (the real one when 0 was asked for).
    public let port: Int
    /// The port serving HTTPS, if any: `port` itself (`TLSSettings.port` nil), or the one of its own.
    public let securePort: Int?
    /// The address the server listens on.
    public let host: String
    private let servesPlainHTTP: Bool

    /// `http://host:port`, ready to append paths to; `https://host:port` when that port serves HTTPS alone.
    public var baseURL: URL {
        servesPlainHTTP ? url(scheme: "http", port: port) : url(scheme: "https", port: port)
    }

    /// `https://host:securePort`, when the server serves HTTPS.
    public var secureBaseURL: URL? {
        securePort.map { url(scheme: "https", port: $0) }
    }

    private func url(scheme: String, port: Int) -> URL {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(scheme)://\(hostPart):\(port)")!
    }

    private init(transport: HTTPTransport, recorder: Recorder, spec: MockEngine?, faults: FaultController, journal: Journal,
                 host: String) {
        self.transport = transport
        self.recorder = recorder
        self.spec = spec
        self.faults = faults
        self.journal = journal
        self.port = transport.port
        self.securePort = transport.securePort
        self.servesPlainHTTP = transport.servesPlainHTTP
        self.host = host
    }

    /// Binds, then serves on a new event-loop thread.
    /// - Throws: `ServerError` when the address cannot be bound (e.g. the port is in use).
    public static func start(_ configuration: Configuration = Configuration()) throws(ServerError) -> UnderstudyServer {
        let journal = Journal(capacity: configuration.journalCapacity, byteLimit: configuration.journalByteLimit)
        let faults = FaultController(seed: configuration.seed, journal: journal)
        for rule in configuration.rules {
            do {
                try faults.add(rule)
            } catch {
                throw ServerError(kind: .invalidConfiguration, description: error.description)
            }
        }
        try checkTLSFaults(of: configuration)
        let built = ResponderFactory(configuration: configuration, faults: faults, journal: journal,
                                     monotonicMilliseconds: EventLoop.monotonicMilliseconds).build()
        let transport = try HTTPTransport(configuration: configuration, pipeline: built.pipeline)
        built.attach(transport, transport.originPorts)
        for fault in configuration.tlsFaults { transport.tlsFaults?.add(fault) }
        transport.start()
        return UnderstudyServer(transport: transport, recorder: built.recorder, spec: built.spec, faults: faults, journal: journal,
                                host: configuration.host)
    }

    /// Refuses TLS faults a server of this configuration could not present as stated, before anything is bound.
    private static func checkTLSFaults(of configuration: Configuration) throws(ServerError) {
        guard let first = configuration.tlsFaults.first else { return }
        guard configuration.tls != nil else {
            throw ServerError(kind: .invalidConfiguration,
                              description: "TLS fault \(first) needs HTTPS: set tls (--tls or --tls-port)")
        }
        // A name that cannot be in a certificate fails the transport's start, with its own words.
        let names = try? SubjectName.forLeaf(hosts: configuration.certificateNames)
        for fault in configuration.tlsFaults {
            if let problem = TLSFaultQueue.problem(with: fault, certificateNames: names) {
                throw ServerError(kind: .invalidConfiguration, description: "TLS fault \(fault): '\(problem.field)' \(problem.reason)")
            }
        }
    }

    /// Refuses new connections for a while (clients see "connection refused"), then accepts again.
    ///
    /// Returns once the listening socket is closed, so the next connection attempt is refused; on a stopped
    /// server it does nothing. Durations are clamped to 1 ms … 1 day.
    public func goOffline(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds >= 86_400 ? 86_400_000
            : seconds < 0 ? 1 : max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
        let closed = DispatchSemaphore(value: 0)
        // Submitted under the lock `stop()` takes first, so the work is queued ahead of the shutdown and runs,
        // or the server is already stopped and nothing is queued that would never run.
        let submitted = stopped.withLock { isStopped in
            guard !isStopped else { return false }
            transport.loop.submit { [transport] in
                transport.goOffline(forMilliseconds: milliseconds)
                closed.signal()
            }
            return true
        }
        if submitted { closed.wait() }
    }

    /// Clears every rule, session and journal entry, every TLS fault set (queued or for an SNI name), and, serving
    /// a document, what sessions wrote to it and the preferences set on its operations.
    public func reset() {
        _ = transport.tlsFaults?.removeAll()
        faults.reset()
        journal.clear()
        spec?.reset(session: nil)
        spec?.clearForced()
    }

    /// Stops accepting, answers the replies still held back by a delay, closes every connection and ends the
    /// loop thread. Returns once all of it is freed; later calls do nothing.
    public func stop() {
        let alreadyStopped = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return wasStopped
        }
        guard !alreadyStopped else { return }
        transport.shutDown()
        recorder.current.writer?.flush()
    }

    /// Waits until every exchange recorded so far is on disk (see `Configuration.record`).
    public func flushRecording() async {
        await recorder.current.writer?.flushed()
    }

    deinit {
        stop()
    }
}
