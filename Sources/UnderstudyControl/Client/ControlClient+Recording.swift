import Foundation

extension ControlClient {
    // MARK: Recording

    /// What the server forwards, records and replays (`GET /__understudy/recording`).
    public func recordingStatus() async throws(ControlError) -> RecordingStatus {
        try await call("GET", "recording")
    }

    /// Records every exchange forwarded to the upstream from now on into `directory`, replacing a recording
    /// already running (`POST /__understudy/recording`).
    ///
    /// - Parameters:
    ///   - directory: A directory on the server's machine, absolute or relative to its working directory.
    ///   - redacting: Replace secrets (`Authorization`, cookies, token-like JSON fields) by placeholders; turning it
    ///     off writes them as they are.
    ///   - redactedFields: JSON fields to redact besides the built-in ones.
    /// - Returns: The status once recording.
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server has no upstream,
    ///   ``ControlError/Kind/badRequest`` for a directory it cannot write.
    @discardableResult
    public func startRecording(into directory: String, redacting: Bool = true,
                               redactedFields: [String] = []) async throws(ControlError) -> RecordingStatus {
        try await call("POST", "recording", body: RecordingTarget(directory, redacting, redactedFields))
    }

    /// Stops recording; what was already handed to the writer is still written (`DELETE /__understudy/recording`).
    ///
    /// - Returns: The status as it was before stopping: what was recorded, and where.
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when nothing is being recorded.
    @discardableResult
    public func stopRecording() async throws(ControlError) -> RecordingStatus {
        try await call("DELETE", "recording")
    }

    /// Writes the last exchanges forwarded to the upstream (up to 1,000 or 32 MiB, kept whether or not recording was
    /// on) into `directory` (`POST /__understudy/recording/snapshot`).
    ///
    /// - Parameters:
    ///   - directory: A directory on the server's machine, absolute or relative to its working directory.
    ///   - redacting: Replace secrets by placeholders.
    ///   - redactedFields: JSON fields to redact besides the built-in ones.
    /// - Returns: The directory and how many exchanges went into it (written in the background, as a recording is).
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server has no upstream.
    @discardableResult
    public func snapshotRecording(into directory: String, redacting: Bool = true,
                                  redactedFields: [String] = []) async throws(ControlError) -> RecordingSnapshot {
        try await call("POST", "recording/snapshot", body: RecordingTarget(directory, redacting, redactedFields))
    }
}

/// `{"directory", "redact", "redactFields"}`, with the defaults left out as the server reads them.
private struct RecordingTarget: Encodable, Sendable {
    var directory: String
    var redact: Bool?
    var redactFields: [String]?

    init(_ directory: String, _ redacting: Bool, _ redactedFields: [String]) {
        self.directory = directory
        redact = redacting ? nil : false
        redactFields = redactedFields.isEmpty ? nil : redactedFields
    }
}
