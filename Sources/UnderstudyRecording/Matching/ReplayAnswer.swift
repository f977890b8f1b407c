/// What a recording answered: a recorded reply (and the file it came from), or a miss.
public enum ReplayAnswer: Sendable, Equatable {
    /// A recorded reply, from the file named.
    case hit(RecordedExchange.Response, file: String)
    /// Nothing recorded matches.
    case miss(ReplayMiss)
}
