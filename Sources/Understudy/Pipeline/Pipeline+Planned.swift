extension Pipeline {
    /// What the pipeline decided about a request: its reply, or that an index its route needs is built first.
    enum Planned {
        /// Everything about the reply, for the writer.
        case reply(ReplyPlan)
        /// The request waits, without holding the loop, for `Groundwork`'s builds; then it is planned again with
        /// `indexesReady`.
        case awaitingIndexes(Groundwork)
    }
}
