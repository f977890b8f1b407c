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

    /// The time an IMF-fixdate such as `Wed, 21 Oct 2026 07:28:00 GMT` names, in seconds since 1970; nil for
    /// anything else. Written back with `httpDate`, the date must give the same text, so a wrong weekday, a day
    /// past the month's end, a missing zero or any other spelling is refused rather than guessed at.
    static func secondsSince1970(httpDate text: String) -> Double? {
        let bytes = Array(text.utf8)
        // "Www, DD Mmm YYYY HH:MM:SS GMT": 29 ASCII bytes with digits in fixed places.
        guard bytes.count == 29 else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int32(byte - 0x30)
            }
            return value
        }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let day = number(5..<7), let year = number(12..<16), let hour = number(17..<19),
              let minute = number(20..<22), let second = number(23..<25), year >= 1970,
              let month = months.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = Double(timegm(&parts))
        return httpDate(seconds) == text ? seconds : nil
    }

    private static func brokenDown(_ seconds: Double) -> tm {
        // Years 1 to 9999, the range both formats can write; outside it `time_t(_:)` or the year could overflow.
        var time = time_t(min(max(seconds.isNaN ? 0 : seconds, -62_135_596_800), 253_402_300_799))
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }
}
