import Foundation

/// Where an upload's body comes from.
public enum UploadSource: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// A file, read by the session as it sends.
    case file(URL)
}
