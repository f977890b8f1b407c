import UnderstudyLocking

/// Requests held while an index they need is built off the loop: a first search, filter or sort of a large
/// collection. They are held with the writer's other replies (`heldReplies`, the shutdown's drain), as a delayed
/// reply is; the build wakes one by its ticket, through the loop's inbox.
extension ReplyWriter {
    /// Holds a request until `groundwork`'s builds are done (the loop serves others meanwhile), then calls `resume`,
    /// which plans it again; at once when everything was built by now. A build is another thread, so it hands the
    /// request back through the loop's inbox.
    func hold(until groundwork: Groundwork, then resume: @escaping () -> Void) {
        let ticket = awaitedCount
        awaitedCount += 1
        awaitingIndexes[ticket] = resume
        let waits = groundwork.start { [loop, resumesAwaited] in
            resumesAwaited.withLock { open in
                guard open else { return }
                loop.submit { [weak self] in self?.resumeAwaiting(ticket) }
            }
        }
        if !waits { resumeAwaiting(ticket) }
    }

    /// Plans a held request again, now; nothing when it is not held (any more).
    private func resumeAwaiting(_ ticket: Int) {
        awaitingIndexes.removeValue(forKey: ticket)?()
    }

    /// Before the loop stops: no build still running hands its request back to it.
    func stopResumingAwaited() {
        resumesAwaited.withLock { $0 = false }
    }

    /// Whether a request is still waiting for an index.
    var isAwaitingIndexes: Bool { !awaitingIndexes.isEmpty }
}
