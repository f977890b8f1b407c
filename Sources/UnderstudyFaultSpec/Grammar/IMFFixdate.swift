/// The IMF-fixdate of HTTP headers, `Sun, 06 Nov 1994 08:49:37 GMT`, read without Foundation or the C library.
package enum IMFFixdate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The time `text` names, in seconds since 1970; nil for anything else. Only the one spelling of a real
    /// moment is read: a wrong weekday, a day past the month's end, a missing zero, `24:00:00` or a year before
    /// 1970 is refused rather than guessed at.
    package static func secondsSince1970(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        // "Www, DD Mmm YYYY HH:MM:SS GMT": 29 ASCII bytes with digits in fixed places.
        guard bytes.count == 29 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let day = number(5..<7), let year = number(12..<16), let hour = number(17..<19),
              let minute = number(20..<22), let second = number(23..<25), year >= 1970,
              let month = months.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
              (1...daysIn(month: month + 1, of: year)).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        let days = daysSince1970(year: year, month: month + 1, day: day)
        let weekday = weekdays[(days + 4) % 7]  // 1 January 1970 was a Thursday.
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let written = "\(weekday), \(twoDigits(day)) \(months[month]) \(year) "
            + "\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second)) GMT"
        guard written == text else { return nil }
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    private static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1 January 1970 to a date of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil,
    /// for years from 1970 on).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
