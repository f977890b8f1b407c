/// The last whole exchanges forwarded, oldest first, bounded by count and by bytes: what a snapshot writes out.
///
/// A ring: keeping one more exchange and dropping the oldest moves no other. (An array losing its first element
/// moved every other one, ~37k instructions per forwarded request once a thousand were kept.)
struct RecentExchanges {
    typealias Exchange = (request: HTTPRequest, reply: CapturedReply)

    let maximumCount: Int
    let maximumBytes: Int
    /// The ring; allocated by the first exchange kept, so a server that forwards nothing pays nothing.
    private var slots: [Exchange?] = []
    private var oldest = 0
    private(set) var count = 0
    /// Body bytes held, requests' and replies'.
    private(set) var bytes = 0

    init(maximumCount: Int, maximumBytes: Int) {
        self.maximumCount = max(1, maximumCount)
        self.maximumBytes = maximumBytes
    }

    /// Keeps `exchange`, dropping the oldest ones past either bound (`exchange` too, when it alone is too big).
    mutating func append(_ exchange: Exchange) {
        if slots.isEmpty { slots = Array(repeating: nil, count: maximumCount) }
        if count == maximumCount { dropOldest() }
        slots[(oldest + count) % maximumCount] = exchange
        count += 1
        bytes += Self.size(of: exchange)
        while bytes > maximumBytes, count > 0 { dropOldest() }
    }

    /// The exchanges, oldest first.
    var inOrder: [Exchange] {
        (0..<count).compactMap { slots[(oldest + $0) % maximumCount] }
    }

    private mutating func dropOldest() {
        if let dropped = slots[oldest] { bytes -= Self.size(of: dropped) }
        slots[oldest] = nil
        oldest = (oldest + 1) % maximumCount
        count -= 1
    }

    private static func size(of exchange: Exchange) -> Int {
        exchange.reply.body.count + exchange.request.body.count
    }
}
