import UnderstudyLocking

/// Fires when a connection has been silent for longer than the idle timeout.
///
/// A timer of its own rather than URLSession's request timeout alone: the limit belongs to this stream (not the
/// session-wide timeout ordinary calls share), it is not rounded to FoundationNetworking's whole seconds, and a
/// silent-but-open connection is reported as a lost connection the reconnect logic understands.
/// Activity (any bytes, heartbeat comments included) is recorded with ``touch()`` as the bytes arrive from the
/// session, not as the consumer reads them, so a slow consumer never makes a healthy stream look idle.
final class IdleWatchdog: Sendable {
    private struct State {
        var lastActivity: ContinuousClock.Instant
        var fired = false
    }

    /// Shared with the watcher task, which must not keep the watchdog itself alive.
    private final class Shared: Sendable {
        let state = Locked(State(lastActivity: .now))
    }

    private let shared = Shared()
    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    private let timeout: Duration

    /// Creates a watchdog that does not watch yet; activity recorded before ``start(onIdle:)`` counts.
    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Starts watching; `onIdle` runs once, on a background task, if the timeout passes without activity.
    func start(onIdle: @escaping @Sendable () -> Void) {
        let timeout = timeout
        touch()
        let watcher = Task { [shared] in
            while !Task.isCancelled {
                let deadline = shared.state.withLock { $0.lastActivity } + timeout
                if ContinuousClock.now >= deadline {
                    shared.state.withLock { $0.fired = true }
                    onIdle()
                    return
                }
                try? await Task.sleep(until: deadline, clock: .continuous)
            }
        }
        task.withLock { $0 = watcher }
    }

    deinit {
        stop()
    }

    /// Records activity, pushing the deadline back.
    func touch() {
        shared.state.withLock { $0.lastActivity = .now }
    }

    /// Whether the timeout fired.
    var fired: Bool {
        shared.state.withLock { $0.fired }
    }

    /// Stops watching.
    func stop() {
        task.withLock { $0?.cancel() }
    }
}
