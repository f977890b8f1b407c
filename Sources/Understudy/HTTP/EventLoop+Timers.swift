import CLibevent

/// The timers of replies that outlive their callback: repeating ticks (pacing, flush waits, hang watches) and
/// one-shot wake-ups (streams).
extension EventLoop {
    /// Runs the task's `onTick` every `milliseconds`, until stopped or replaced.
    func startTimer(_ task: ConnectionTask, everyMilliseconds milliseconds: Int) {
        stopTimer(task)
        task.timer = makeTimer(for: task, repeating: true)
        task.timerRepeats = true
        arm(task.timer, inMicroseconds: milliseconds * 1_000)
    }

    /// Runs the task's `onTick` once, after `milliseconds` (re-arming the same timer each time).
    func schedule(_ task: ConnectionTask, inMilliseconds milliseconds: Double) {
        if task.timer == nil || task.timerRepeats {
            stopTimer(task)
            task.timer = makeTimer(for: task, repeating: false)
            task.timerRepeats = false
        }
        arm(task.timer, inMicroseconds: Int((milliseconds * 1_000).rounded(.up)))
    }

    /// Adds `event` (a timer) to fire `microseconds` from now, every time for a persistent one.
    ///
    /// libevent adds a timeout to the time it cached when the current loop pass began; in a burst of work that is
    /// milliseconds old, and the timer would fire that much early. So the cache is refreshed first.
    func arm(_ event: OpaquePointer?, inMicroseconds microseconds: Int) {
        event_base_update_cache_time(base)
        let microseconds = max(0, microseconds)
        var interval = timeval(tv_sec: microseconds / 1_000_000, tv_usec: .init(microseconds % 1_000_000))
        event_add(event, &interval)
    }

    private func makeTimer(for task: ConnectionTask, repeating: Bool) -> OpaquePointer? {
        event_new(base, -1, repeating ? Int16(EV_PERSIST) : 0, { _, _, argument in
            guard let argument else { return }
            let task = Unmanaged<ConnectionTask>.fromOpaque(argument).takeUnretainedValue()
            task.onTick?(task)
        }, Unmanaged.passUnretained(task).toOpaque())
    }

    func stopTimer(_ task: ConnectionTask) {
        if let timer = task.timer {
            event_free(timer)
            task.timer = nil
        }
    }
}
