extension FaultGrammar {
    // The units of fault specs: `300ms`, `2s`, `100ms..500ms`, `2kB/s`, `10/2s`, `5/10s`.

    /// Milliseconds from `300ms`, `2s`, `1.5s`, `1m` or a bare number of milliseconds, rounded.
    static func milliseconds(_ text: String, maximum: Int) throws(Problem) -> Int {
        let lower = text.lowercased()
        let (number, scale): (Substring, Double) =
            lower.hasSuffix("ms") ? (lower.dropLast(2), 1)
            : lower.hasSuffix("s") ? (lower.dropLast(1), 1_000)
            : lower.hasSuffix("m") ? (lower.dropLast(1), 60_000)
            : (lower[...], 1)
        guard let value = decimal(number), value.isFinite, value >= 0 else {
            throw Problem("'\(text)' is not a duration like 300ms or 2s")
        }
        let milliseconds = value * scale
        guard milliseconds <= Double(maximum) else { throw Problem("'\(text)' is longer than \(maximum / 1_000) s") }
        return Int(milliseconds.rounded())
    }

    /// Digits with at most one `.`, and nothing else: `Double(_:)` alone would stop at an embedded NUL and accept
    /// `1.\0junk` as 1.
    static func decimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
              text.utf8.filter({ $0 == 0x2E }).count <= 1, text.utf8.contains(where: { $0 != 0x2E }) else { return nil }
        return Double(text)
    }

    /// `300ms` or `100ms..500ms`.
    static func range(_ text: String, maximumMilliseconds: Int) throws(Problem) -> ClosedRange<Int> {
        let parts = rangeParts(text)
        guard parts.count <= 2 else { throw Problem("a range is written low..high, e.g. 100ms..500ms") }
        let low = try milliseconds(parts[0], maximum: maximumMilliseconds)
        let high = parts.count == 2 ? try milliseconds(parts[1], maximum: maximumMilliseconds) : low
        guard low <= high else { throw Problem("the range's low end is above its high end") }
        return low...high
    }

    /// `text` split at each `..`, by Characters, as Foundation's `components(separatedBy:)` splits it (so a `.`
    /// that a combining mark follows is not a separator).
    private static func rangeParts(_ text: String) -> [String] {
        var parts: [String] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index] == ".", next < text.endIndex, text[next] == "." {
                parts.append(String(text[start..<index]))
                index = text.index(after: next)
                start = index
            } else {
                index = next
            }
        }
        parts.append(String(text[start...]))
        return parts
    }

    /// The fastest rate a spec may ask for, in bytes per second: past it, pacing a loopback reply means nothing.
    package static let maximumBytesPerSecond = 100_000_000

    /// Bytes per second from `64k`, `1.5m`, `512` (k = 1,000; m = 1,000,000) or `2kB/s`, `512B/s`, `1MB/s`,
    /// `1KiB/s` (KiB = 1,024), from 1 B/s to ``maximumBytesPerSecond``.
    static func byteRate(_ text: String) throws(Problem) -> Int {
        let lower = text.lowercased()
        let shortUnits: [(String, Double)] = [("k", 1_000), ("m", 1_000_000), ("g", 1_000_000_000), ("", 1)]
        let longUnits: [(String, Double)] = [("kib", 1_024), ("mib", 1_048_576), ("kb", 1_000), ("mb", 1_000_000), ("b", 1)]
        let (amount, units) = lower.hasSuffix("/s") ? (lower.dropLast(2), longUnits) : (lower[...], shortUnits)
        if amount.hasPrefix("-") { throw Problem("'\(text)' is negative: a rate is at least 1 byte per second") }
        guard let (suffix, scale) = units.first(where: { amount.hasSuffix($0.0) }),
              let value = decimal(amount.dropLast(suffix.count)) else {
            throw Problem("'\(text)' is not a rate like 64k, 1m or 2kB/s")
        }
        // Checked as a Double first: a long run of digits is past Int's range, and converting it would trap.
        let bytes = (value * scale).rounded()
        guard bytes >= 1 else { throw Problem("'\(text)' is below the slowest rate, 1 byte per second") }
        guard bytes <= Double(maximumBytesPerSecond) else {
            throw Problem("'\(text)' is past the limit: a rate is at most 100m (100 MB/s)")
        }
        return Int(bytes)
    }

    /// `COUNT/DURATION`: how many pieces, over how many milliseconds.
    static func chunks(_ text: String) throws(Problem) -> (count: Int, milliseconds: Int) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let count = Int(parts[0]), (1...10_000).contains(count) else {
            throw Problem("chunks is written COUNT/DURATION, e.g. 10/2s")
        }
        return (count, try milliseconds(String(parts[1]), maximum: 600_000))
    }

    /// `REQUESTS/WINDOW`: requests allowed per window of this many milliseconds.
    static func rateLimit(_ text: String) throws(Problem) -> (requests: Int, milliseconds: Int) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let requests = Int(parts[0]), requests >= 1 else {
            throw Problem("rate-limit is written REQUESTS/WINDOW, e.g. 5/10s")
        }
        // The bucket counts in Double; past 2^53 a token taken away would not change it.
        guard requests <= 1_000_000 else { throw Problem("rate-limit allows at most 1000000 requests per window") }
        let window = try milliseconds(String(parts[1]), maximum: 3_600_000)
        guard window > 0 else { throw Problem("the rate-limit window must be longer than 0") }
        return (requests, window)
    }
}
