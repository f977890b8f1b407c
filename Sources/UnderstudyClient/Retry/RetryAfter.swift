import Foundation

/// A parsed `Retry-After` header: RFC 9110 §10.2.3 allows delta-seconds or an HTTP-date.
public enum RetryAfter: Sendable, Hashable, CustomStringConvertible {
    /// `Retry-After: 120`.
    case seconds(Int)
    /// `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT`.
    case date(Date)

    /// Parses a header value; nil when it is neither form (a negative number, a fraction, garbage).
    ///
    /// - Parameter value: The header value, surrounding whitespace allowed.
    /// - Returns: The parsed value, or nil.
    public init?(headerValue value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // A huge number of digits still means "a very long time", which the clamp then refuses.
            self = .seconds(Int(trimmed) ?? Int.max)
            return
        }
        guard let date = Self.parseHTTPDate(trimmed) else { return nil }
        self = .date(date)
    }

    /// How long to wait from `now`; a date in the past means no wait.
    ///
    /// - Parameter now: The current time (injected, so tests need no clock).
    /// - Returns: A non-negative duration.
    public func delay(relativeTo now: Date) -> Duration {
        switch self {
        case .seconds(let seconds):
            return .seconds(seconds)
        case .date(let date):
            let interval = date.timeIntervalSince(now)
            guard interval > 0 else { return .zero }
            return .milliseconds(Int64((min(interval, 1e12) * 1000).rounded(.up)))
        }
    }

    /// The header's value as it would be sent.
    public var description: String {
        switch self {
        case .seconds(let seconds): "\(seconds)"
        case .date(let date): Self.formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'").string(from: date)
        }
    }

    /// IMF-fixdate first, then the two obsolete forms recipients must still accept (RFC 9110 §5.6.7).
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    private static func parseHTTPDate(_ text: String) -> Date? {
        // asctime pads single-digit days with a space ("Nov  6"); collapse runs so one pattern fits.
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            if let date = formatter(format).date(from: collapsed) { return date }
        }
        return nil
    }

    // DateFormatter is not Sendable, so each parse gets its own; Retry-After is rare enough for that to be cheap.
    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = format
        return formatter
    }
}
