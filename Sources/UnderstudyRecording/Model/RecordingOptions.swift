/// How a recording is written and matched; kept in the directory's manifest (`understudy-recording.json`), so a
/// replay matches the way the recording was made.
public struct RecordingOptions: Sendable, Equatable {
    /// Query parameters left out of matching (and of file names): cache busters, timestamps, nonces.
    public var ignoredQueryParameters: [String]
    /// JSON fields (and query parameters and headers of the same names) redacted besides
    /// ``RecordingOptions/defaultRedactedFields``, compared without regard to case.
    public var redactedFields: [String]
    /// Whether secrets are replaced by placeholders; on unless turned off explicitly.
    public var redacts: Bool

    /// The JSON fields (and query parameters) redacted at any depth by default.
    public static let defaultRedactedFields = [
        "accessToken", "refreshToken", "token", "password", "access_token", "refresh_token", "id_token",
        "client_secret",
    ]

    /// Options; by default nothing is ignored and redaction is on.
    public init(ignoredQueryParameters: [String] = [], redactedFields: [String] = [], redacts: Bool = true) {
        self.ignoredQueryParameters = ignoredQueryParameters
        self.redactedFields = redactedFields
        self.redacts = redacts
    }

    /// Every redacted field name, lower-cased.
    var redactedFieldSet: Set<String> {
        Set((Self.defaultRedactedFields + redactedFields).map { $0.lowercased() })
    }

    /// These options with `other`'s ignored parameters and redacted fields added (a replay's flags on top of the
    /// manifest's).
    public func adding(_ other: RecordingOptions) -> RecordingOptions {
        var merged = self
        merged.ignoredQueryParameters += other.ignoredQueryParameters.filter { !ignoredQueryParameters.contains($0) }
        merged.redactedFields += other.redactedFields.filter { !redactedFields.contains($0) }
        return merged
    }
}
