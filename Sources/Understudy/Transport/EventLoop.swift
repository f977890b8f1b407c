import CLibevent
import Foundation
import UnderstudyLocking

/// One libevent base, the thread that runs it, and an inbox for work handed to it from other threads.
///
/// `@unchecked Sendable`: `submit` is the only member called off the loop thread; it hands work over through
/// `inbox`, a Locked, and `event_active`, which libevent makes thread-safe once `evthread_use_pthreads` has run.
/// Everything else runs on the loop thread (libevent callbacks).
final class EventLoop: @unchecked Sendable {
    let base: OpaquePointer
    private var wakeEvent: OpaquePointer?
    private let inbox = Locked<[@Sendable () -> Void]>([])
    private let finished = DispatchSemaphore(value: 0)

    /// libevent must be told to lock its structures before any base exists; SIGPIPE must not kill the process
    /// when a client goes away mid-reply; long replies and slow clients each hold a descriptor, so the process may
    /// use all it is allowed.
    private static let processSetUp: Bool = {
        signal(SIGPIPE, SIG_IGN)
        Posix.raiseDescriptorLimit()
        return evthread_use_pthreads() == 0
    }()

    init() throws(ServerError) {
        _ = EventLoop.processSetUp
        guard let base = EventLoop.makeBase() else {
            throw ServerError(kind: .listenerFailed, description: "libevent could not create an event base")
        }
        self.base = base
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

    /// Runs the loop on a new thread named `name`, until `stop` is called on it.
    func run(name: String) {
        let thread = Thread { [self] in
            event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY)
            finished.signal()
        }
        thread.name = name
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

    /// Ends the loop after the current callback; on the loop thread.
    func stop() {
        event_base_loopbreak(base)
    }

    /// Waits for the loop thread to end (after `stop`; not when it never ran), runs `freeEvents` for the owner's
    /// own events, then frees the base; off the loop thread.
    func waitAndFree(running: Bool = true, _ freeEvents: () -> Void = {}) {
        if running { finished.wait() }
        freeEvents()
        if let wakeEvent { event_free(wakeEvent) }
        event_base_free(base)
    }

    static func monotonicMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1_000 + Double(now.tv_nsec) / 1_000_000
    }
}
