/// A body dribbled out in slices on a schedule: at most so many bytes a second, or in so many pieces over a time.
///
/// Slices are due at fixed times from the start (`startedAt + n × tick`), not a tick after the last one was
/// written, so the time a turn takes does not add up over a long body.
struct PacedBody: Delivery {
    let body: [UInt8]
    let bytesPerTick: Int
    let tickMilliseconds: Int
    private var sent = 0
    private var ticks = 0
    private var startedAt: Double?

    init(body: [UInt8], pacing: FaultSpec.Pacing) {
        self.body = body
        (bytesPerTick, tickMilliseconds) = PacedBody.slices(of: body.count, pacing: pacing)
    }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        guard let startedAt else {
            startedAt = context.now
            return DeliveryTurn([.head(contentLength: body.count)], wake: Double(tickMilliseconds))
        }
        let end = min(body.count, sent + bytesPerTick)
        let slice = Array(body[sent..<end])
        sent = end
        ticks += 1
        guard sent < body.count else { return DeliveryTurn([.body(slice), .end]) }
        let due = startedAt + Double((ticks + 1) * tickMilliseconds)
        return DeliveryTurn([.body(slice)], wake: max(0, due - context.now))
    }

    /// Bytes per tick and tick length for a pacing directive (ticks of at least 10 ms).
    static func slices(of length: Int, pacing: FaultSpec.Pacing) -> (bytes: Int, milliseconds: Int) {
        switch pacing {
        case .bytesPerSecond(let rate):
            let tick = max(10, min(1_000, 1_000 * 64 / max(rate, 1)))
            return (max(1, rate * tick / 1_000), tick)
        case .chunks(let count, let duration):
            return (max(1, (length + count - 1) / count), max(1, duration / max(1, count)))
        }
    }
}
