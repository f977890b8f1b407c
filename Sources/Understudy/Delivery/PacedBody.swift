/// A body dribbled out on a schedule: at most so many bytes a second, or in so many pieces over a time, with
/// seeded pauses mid-body (`stall`). The schedule is a `RatePacer`'s, fixed from the start.
struct PacedBody: Delivery {
    let body: [UInt8]
    private var pacer: RatePacer
    private var started = false

    init(body: [UInt8], pacing: FaultSpec.Pacing?, pauses: [RatePacer.Pause] = []) {
        self.body = body
        pacer = RatePacer(pacing: pacing, length: body.count, pauses: pauses)
    }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        guard started else {
            started = true
            let first = pacer.start(at: context.now)
            return DeliveryTurn([.head(contentLength: body.count)], wake: first)
        }
        let sent = pacer.granted
        let grant = pacer.grant(ready: body.count - sent, now: context.now)
        let slice = Array(body[sent..<(sent + grant.bytes)])
        guard pacer.granted < body.count else { return DeliveryTurn([.body(slice), .end]) }
        return DeliveryTurn(grant.bytes > 0 ? [.body(slice)] : [], wake: grant.wake ?? 0)
    }
}
