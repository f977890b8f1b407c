extension Fault {
    /// A `Retry-After` value: whole seconds, or an HTTP-date.
    public struct RetryAfter: Sendable, Hashable, CustomStringConvertible {
        /// The value as the header carries it, e.g. `2` or `Wed, 21 Oct 2026 07:28:00 GMT`.
        public let text: String

        private init(text: String) {
            self.text = text
        }

        /// Retry after this many seconds (0 or more; the server takes up to a year).
        ///
        /// - Parameter seconds: Whole seconds.
        /// - Returns: The value.
        public static func seconds(_ seconds: Int) -> RetryAfter {
            RetryAfter(text: String(max(0, seconds)))
        }

        /// Retry after this HTTP-date, an IMF-fixdate such as `Wed, 21 Oct 2026 07:28:00 GMT` (the server checks
        /// it: the right weekday, two-digit day, English month, GMT).
        ///
        /// - Parameter date: The date as the header carries it.
        /// - Returns: The value.
        public static func httpDate(_ date: String) -> RetryAfter {
            RetryAfter(text: Fault.cleaned(date))
        }

        /// The whole seconds, when the value is a number of seconds.
        public var seconds: Int? {
            text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? Int(text) : nil
        }

        /// The value as the header carries it.
        public var description: String { text }

        /// Reads a value as the grammar writes it: digits are seconds, anything else a date.
        static func parse(_ text: String) -> RetryAfter {
            text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? RetryAfter(text: text) : httpDate(text)
        }
    }

    /// The line ending of an event stream (`newline=`).
    public struct Newline: Sendable, Hashable, CustomStringConvertible {
        /// The value in the grammar: `crlf`, `cr` or `lf`.
        public let rawValue: String

        private init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// `\r\n` line endings.
        public static let crlf = Newline("crlf")
        /// `\r` line endings.
        public static let cr = Newline("cr")
        /// `\n` line endings (the default).
        public static let lf = Newline("lf")

        /// The value as written in the grammar.
        public var description: String { rawValue }

        /// A known line ending by its name (any case), or nil.
        static func named(_ text: String) -> Newline? {
            [crlf, cr, lf].first { $0.rawValue == text.lowercased() }
        }
    }

    /// A free-text value the grammar can carry: `;` separates directives, so it becomes `,`; surrounding spaces
    /// are trimmed, as the server trims them.
    static func cleaned(_ text: String) -> String {
        FaultGrammar.trimmed(String(text.map { $0 == ";" ? "," : $0 }))
    }
}
