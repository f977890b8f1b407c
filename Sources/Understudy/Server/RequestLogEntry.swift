import Foundation

/// One line of the request log: what was asked, what was answered, and how long it took.
public struct RequestLogEntry: Sendable, CustomStringConvertible {
    public let method: String
    public let target: String
    public let status: Int
    /// From the request's arrival to the reply being queued, in milliseconds (includes any delay).
    public let durationMilliseconds: Double
    /// The fault applied, if any.
    public let fault: String?

    public var description: String {
        let line = "\(method) \(target) \(status == 0 ? "-" : String(status)) \(String(format: "%.1f", durationMilliseconds))ms"
        return fault.map { line + " [fault: \($0)]" } ?? line
    }
}
