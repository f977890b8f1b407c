import Foundation

/// One line of the request log: what was asked, what was answered, and how long it took.
public struct RequestLogEntry: Sendable, CustomStringConvertible {
    /// The request method, e.g. `GET`.
    public let method: String
    /// The request target as sent, query included.
    public let target: String
    /// The status sent, or 0 when no status line was (empty, reset, hang, garbage).
    public let status: Int
    /// From the request's arrival to the reply being queued, in milliseconds (includes any delay).
    public let durationMilliseconds: Double
    /// The fault applied, if any.
    public let fault: String?

    /// One log line: method, target, status, milliseconds and the fault applied.
    public var description: String {
        let line = "\(method) \(target) \(status == 0 ? "-" : String(status)) \(String(format: "%.1f", durationMilliseconds))ms"
        return fault.map { line + " [fault: \($0)]" } ?? line
    }
}
