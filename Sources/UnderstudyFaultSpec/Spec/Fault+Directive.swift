extension Fault {
    /// One directive of the grammar, with its value in the server's units (milliseconds, bytes): what the
    /// grammar reads (``Fault/init(parsing:)``) and renders (``Fault/text``), and what the server decides from.
    package enum Directive: Sendable, Hashable {
        case delay(ClosedRange<Int>)
        case jitter(Int)
        case rate(bytesPerSecond: Int)
        case uprate(bytesPerSecond: Int)
        case chunks(count: Int, overMilliseconds: Int)
        case stall(ClosedRange<Int>)
        case profile(NetworkProfile)
        case status(Int)
        case message(String)
        case retryAfter(RetryAfter)
        case rateLimit(requests: Int, windowMilliseconds: Int)
        case expireToken
        case malformed(shape: Bool)
        case truncateBytes(Int)
        case truncatePercent(Int)
        case truncateChunked
        case empty
        case reset(afterHeaders: Bool)
        case hang
        case garbage
        case dropAfter(Int)
        case cutMidEvent(Int)
        case resetAfter(Int)
        case stallAfter(Int)
        case malformedEvent(Int)
        case newline(Newline)
        case chunk(Int)
        case close(code: Int)
        case closeAfter(Int)
        case corrupt(FrameCorruption)
        case skip(Int)
        case duplicate(Int)
        case lag(ClosedRange<Int>)

        /// The directive's name in the grammar.
        package var name: Name {
            switch self {
            case .delay: .delay
            case .jitter: .jitter
            case .rate: .rate
            case .uprate: .uprate
            case .chunks: .chunks
            case .stall: .stall
            case .profile: .profile
            case .status: .status
            case .message: .message
            case .retryAfter: .retryAfter
            case .rateLimit: .rateLimit
            case .expireToken: .expireToken
            case .malformed: .malformed
            case .truncateBytes, .truncatePercent: .truncate
            case .truncateChunked: .truncateChunked
            case .empty: .empty
            case .reset: .reset
            case .hang: .hang
            case .garbage: .garbage
            case .dropAfter: .dropAfter
            case .cutMidEvent: .cutMidEvent
            case .resetAfter: .resetAfter
            case .stallAfter: .stallAfter
            case .malformedEvent: .malformedEvent
            case .newline: .newline
            case .chunk: .chunk
            case .close: .close
            case .closeAfter: .closeAfter
            case .corrupt: .corrupt
            case .skip: .skip
            case .duplicate: .duplicate
            case .lag: .lag
            }
        }

        /// The value after `=`, or nil for a flag.
        package var value: String? {
            switch self {
            case .delay(let range), .stall(let range), .lag(let range): Fault.render(range: range)
            case .jitter(let milliseconds): Fault.render(milliseconds: milliseconds)
            case .rate(let bytes), .uprate(let bytes):
                bytes % 1_000_000 == 0 ? "\(bytes / 1_000_000)MB/s" : bytes % 1_000 == 0 ? "\(bytes / 1_000)kB/s" : "\(bytes)B/s"
            case .profile(let profile): profile.name
            case .chunks(let count, let milliseconds): "\(count)/\(Fault.render(milliseconds: milliseconds))"
            case .status(let code): String(code)
            case .message(let text): text
            case .retryAfter(let value): value.text
            case .rateLimit(let requests, let milliseconds): "\(requests)/\(Fault.render(milliseconds: milliseconds))"
            case .malformed(let shape): shape ? "shape" : nil
            case .truncateBytes(let bytes): String(bytes)
            case .truncatePercent(let percent): "\(percent)%"
            case .reset(let afterHeaders): afterHeaders ? "after-headers" : nil
            case .dropAfter(let count), .cutMidEvent(let count), .resetAfter(let count), .stallAfter(let count),
                 .malformedEvent(let count), .chunk(let count), .close(let count), .skip(let count), .duplicate(let count):
                String(count)
            case .closeAfter(let milliseconds): Fault.render(milliseconds: milliseconds)
            case .corrupt(let corruption): corruption.rawValue
            case .newline(let newline): newline.rawValue
            case .expireToken, .truncateChunked, .empty, .hang, .garbage: nil
            }
        }

        /// `name` or `name=value`, as the server normalises it.
        package var text: String { value.map { "\(name.rawValue)=\($0)" } ?? name.rawValue }
    }

    /// `300ms`, or `2s` when the time is whole seconds.
    static func render(milliseconds: Int) -> String {
        milliseconds > 0 && milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000)s" : "\(milliseconds)ms"
    }

    /// `300ms`, or `100ms..500ms` for a range.
    static func render(range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound
            ? render(milliseconds: range.lowerBound)
            : "\(render(milliseconds: range.lowerBound))..\(render(milliseconds: range.upperBound))"
    }

    /// A duration in whole milliseconds (rounded; negative durations count as 0), the server's resolution.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return total <= 0 ? 0 : Int(min(total.rounded(), Double(Int.max / 2)))
    }
}
