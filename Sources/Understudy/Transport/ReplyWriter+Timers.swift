import CLibevent

/// The timers of replies that outlive their callback: repeating ticks (pacing, flush waits, hang watches) and
/// one-shot wake-ups (streams).
extension ReplyWriter {
    /// Runs the task's `onTick` every `milliseconds`, until stopped or replaced.
    func startTimer(_ task: ConnectionTask, everyMilliseconds milliseconds: Int) {
        stopTimer(task)
        task.timer = makeTimer(for: task, repeating: true)
        task.timerRepeats = true
        loop.arm(task.timer, inMicroseconds: milliseconds * 1_000)
    }

    /// Runs the task's `onTick` once, after `milliseconds` (re-arming the same timer each time).
    func schedule(_ task: ConnectionTask, inMilliseconds milliseconds: Double) {
        if task.timer == nil || task.timerRepeats {
            stopTimer(task)
            task.timer = makeTimer(for: task, repeating: false)
            task.timerRepeats = false
        }
        loop.arm(task.timer, inMicroseconds: Int((milliseconds * 1_000).rounded(.up)))
    }

    private func makeTimer(for task: ConnectionTask, repeating: Bool) -> OpaquePointer? {
        loop.makeTimer(repeating: repeating, argument: Unmanaged.passUnretained(task).toOpaque()) { _, _, argument in
            guard let argument else { return }
            let task = Unmanaged<ConnectionTask>.fromOpaque(argument).takeUnretainedValue()
            task.onTick?(task)
        }
    }

    func stopTimer(_ task: ConnectionTask) {
        if let timer = task.timer {
            event_free(timer)
            task.timer = nil
        }
    }
}
