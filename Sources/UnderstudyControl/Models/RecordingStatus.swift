/// `GET /__understudy/recording`: what the server forwards to its upstream, what it is recording, and what a
/// replayed recording had no answer for.
public struct RecordingStatus: Sendable, Hashable, Decodable {
    /// The upstream's URL (`--upstream`), or nil when the server forwards nothing.
    public let upstream: String?
    /// Whether forwarded exchanges are being written into ``directory``.
    public let isRecording: Bool
    /// Where the recording goes, as the server's absolute path; nil when not recording.
    public let directory: String?
    /// Whether secrets are replaced by placeholders in the recording; nil when not recording.
    public let redacted: Bool?
    /// Exchanges recorded since recording started.
    public let recorded: Int
    /// Forwarded exchanges left out of the recording (cut short, or a body over 16 MiB).
    public let skipped: Int
    /// Bytes handed to the writer and not yet on disk.
    public let pendingBytes: Int
    /// `METHOD /path` of each request recorded, sorted.
    public let recordedRoutes: [String]
    /// `METHOD /path` of each request the replayed recording holds (`--replay`), or nil when nothing is replayed.
    public let replayedRoutes: [String]?
    /// Requests the replayed recording had no answer for.
    public let misses: Int
    /// The last 50 of those misses, `METHOD /target`, oldest first.
    public let recentMisses: [String]
    /// Forwarded exchanges kept for a snapshot (``ControlClient/snapshotRecording(into:redacting:redactedFields:)``).
    public let recentExchanges: Int
    /// Exchanges handed over that the writer could not write (a full disk, or more waiting than it holds): they are
    /// counted in ``recorded`` but missing from the directory.
    public let writeFailures: Int
    /// Why the last of them failed; nil when none did.
    public let lastWriteFailure: String?

    private enum CodingKeys: String, CodingKey {
        case upstream, isRecording = "recording", directory, redacted, recorded, skipped, pendingBytes, recordedRoutes,
             replayedRoutes, misses, recentMisses, recentExchanges, writeFailures, lastWriteFailure
    }
}

/// What `POST /__understudy/recording/snapshot` wrote.
public struct RecordingSnapshot: Sendable, Hashable, Decodable {
    /// The directory written, as the server's absolute path.
    public let directory: String
    /// How many exchanges were handed to the writer.
    public let exchanges: Int
}
