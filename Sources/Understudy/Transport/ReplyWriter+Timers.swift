import CLibevent

/// Each task's one timer: re-armed for exactly what it waits for next (`ConnectionTask.Wait`).
extension ReplyWriter {
    /// Arms the task's timer to fire once, after `milliseconds`, for `wait`.
    func schedule(_ task: ConnectionTask, _ wait: ConnectionTask.Wait, inMilliseconds milliseconds: Double) {
        task.wait = wait
        if task.timer == nil {
            task.timer = loop.makeTimer(repeating: false, argument: Unmanaged.passUnretained(task).toOpaque()) { _, _, argument in
                guard let argument else { return }
                let task = Unmanaged<ConnectionTask>.fromOpaque(argument).takeUnretainedValue()
                task.writer?.waitTicked(task)
            }
        }
        loop.arm(task.timer, inMicroseconds: Int((milliseconds * 1_000).rounded(.up)))
    }

    func stopTimer(_ task: ConnectionTask) {
        if let timer = task.timer {
            event_free(timer)
            task.timer = nil
        }
    }
}
