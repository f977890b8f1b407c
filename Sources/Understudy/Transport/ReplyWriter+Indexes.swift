/// Requests held while an index their route needs is built off the loop: a first search, filter or sort of a large
/// collection. They are held with the writer's other replies (`heldReplies`, the shutdown's drain); the build wakes
/// one by its ticket, through the loop's inbox.
extension ReplyWriter {
    /// Holds a request until `resumeAwaiting` is called with the ticket returned; `resume` plans it again.
    func holdForIndexes(_ resume: @escaping () -> Void) -> Int {
        let ticket = awaitedCount
        awaitedCount += 1
        awaitingIndexes[ticket] = resume
        return ticket
    }

    /// Plans a held request again, now; nothing when it is not held (any more).
    func resumeAwaiting(_ ticket: Int) {
        awaitingIndexes.removeValue(forKey: ticket)?()
    }

    /// Whether a request is still waiting for an index.
    var isAwaitingIndexes: Bool { !awaitingIndexes.isEmpty }
}
