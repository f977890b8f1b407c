import CLibevent
import Foundation
import UnderstudyLocking

/// One libevent base, the thread that runs it, and an inbox for work handed to it from other threads.
///
/// The base takes no lock (`EVENT_BASE_FLAG_NOLOCK`): only the loop thread calls libevent on it. A base that
/// locks takes and releases its mutex about ten times per request (every `event_add` and `event_del`), for the
/// one thing another thread needs, waking the loop; a pipe of the loop's own does that instead.
///
/// `@unchecked Sendable`: `submit` is the only member called off the loop thread; it hands work over through
/// `inbox`, a Locked, and a byte written to the wake pipe, which the loop reads. Everything else runs on the loop
/// thread (libevent callbacks), or after it has ended (`waitAndFree`).
final class EventLoop: @unchecked Sendable {
    let base: OpaquePointer
    private var wakeEvent: OpaquePointer?
    /// The wake pipe's ends: `submit` writes a byte to the second, the loop reads the first.
    private let wake: (read: Int32, write: Int32)
    /// Work for the loop, and whether the pipe is closed (the loop has ended and been freed).
    private let inbox = Locked<(work: [@Sendable () -> Void], isClosed: Bool)>(([], false))
    private let finished = DispatchSemaphore(value: 0)

    /// SIGPIPE must not kill the process when a client goes away mid-reply; long replies and slow clients each
    /// hold a descriptor, so the process may use all it is allowed. libevent's locking is set up for whatever else
    /// in the host process uses libevent; this loop's own base opts out of it.
    private static let processSetUp: Bool = {
        signal(SIGPIPE, SIG_IGN)
        Posix.raiseDescriptorLimit()
        return evthread_use_pthreads() == 0
    }()

    init() throws(ServerError) {
        _ = EventLoop.processSetUp
        guard let wake = Posix.nonBlockingPipe() else {
            throw ServerError(kind: .listenerFailed, description: "could not make the event loop's wake pipe")
        }
        guard let base = EventLoop.makeBase() else {
            close(wake.read)
            close(wake.write)
            throw ServerError(kind: .listenerFailed, description: "libevent could not create an event base")
        }
        self.base = base
        self.wake = wake
        wakeEvent = event_new(base, wake.read, Int16(EV_READ | EV_PERSIST), { _, _, argument in
            guard let argument else { return }
            Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().drainInbox()
        }, Unmanaged.passUnretained(self).toOpaque())
        event_add(wakeEvent, nil)
    }

    /// An event base with precise timers (by default libevent reads CLOCK_MONOTONIC_COARSE on Linux, which moves
    /// in 4 ms steps, so a 300 ms delay could end after 296 ms), no lock (see above), and, where the backend is
    /// epoll, its changes batched until the loop waits: evhttp turns a connection's reading and writing off and on
    /// around every reply, four `epoll_ctl` calls per request, which the batch merges into two (server CPU per
    /// `GET /products/1` 16.1 → 12.6 µs, the bare evhttp server's 14.0). libevent warns that batching confuses
    /// descriptors duplicated with `dup`: the only `dup2` here (`Posix.resetKeepingDescriptor`) replaces a
    /// connection's socket, which epoll then forgets as it forgets any closed one, and libevent re-adds a
    /// descriptor whose change fails for that reason.
    private static func makeBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return nil }
        defer { event_config_free(config) }
        event_config_set_flag(config, Int32(EVENT_BASE_FLAG_PRECISE_TIMER.rawValue | EVENT_BASE_FLAG_NOLOCK.rawValue | EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue))
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
        inbox.withLock { inbox in
            // Once freed, the pipe's descriptor numbers may belong to other files by now: nothing is written.
            guard !inbox.isClosed else { return }
            // Work already waiting has written its wake-up, which the loop reads before it takes the inbox: one
            // byte per loop pass, not per submit. (A full pipe holds an unread wake-up too, so a write that would
            // block is not needed either.)
            let wakes = inbox.work.isEmpty
            inbox.work.append(work)
            guard wakes else { return }
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
    }

    private func drainInbox() {
        // The wake-ups are read before the inbox is taken: work submitted after this read wakes the loop again.
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let capacity = MemoryLayout.size(ofValue: bytes)
        while withUnsafeMutableBytes(of: &bytes, { read(wake.read, $0.baseAddress, capacity) }) == capacity {}
        let work = inbox.withLock { inbox in
            defer { inbox.work.removeAll() }
            return inbox.work
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
        inbox.withLock { inbox in
            inbox.isClosed = true
            close(wake.read)
            close(wake.write)
        }
    }

    static func monotonicMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1_000 + Double(now.tv_nsec) / 1_000_000
    }
}
