import Foundation

/// Time formats the routes send, built with `gmtime_r` so no `DateFormatter` is shared between threads.
enum Timestamp {
    /// `2025-04-30T09:41:02.053Z`, as JavaScript's `toISOString()` writes it.
    static func iso8601(_ secondsSince1970: Double) -> String {
        let whole = secondsSince1970.rounded(.down)
        let milliseconds = Int(((secondsSince1970 - whole) * 1_000).rounded(.down))
        let parts = brokenDown(whole)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                      parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec, milliseconds)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the IMF-fixdate of HTTP headers and cookies.
    static func httpDate(_ secondsSince1970: Double) -> String {
        let parts = brokenDown(secondsSince1970.rounded(.down))
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let day = String(format: "%02d", parts.tm_mday)
        let time = String(format: "%04d %02d:%02d:%02d", parts.tm_year + 1900, parts.tm_hour, parts.tm_min, parts.tm_sec)
        return "\(days[Int(parts.tm_wday)]), \(day) \(months[Int(parts.tm_mon)]) \(time) GMT"
    }

    private static func brokenDown(_ seconds: Double) -> tm {
        // Years 1 to 9999, the range both formats can write; outside it `time_t(_:)` or the year could overflow.
        var time = time_t(min(max(seconds.isNaN ? 0 : seconds, -62_135_596_800), 253_402_300_799))
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }
}
