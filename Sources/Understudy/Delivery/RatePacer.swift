/// When bytes may go out at a rate, with pauses at fixed places: a small value any delivery can hold (a whole
/// reply, an event stream, a proxied body arriving over time). Given the bytes ready and the time, it says how
/// many may go now and when to ask again; it writes nothing.
///
/// The schedule is fixed from the start: slot `n` (of `bytesPerSlot` bytes) is due at `start + n × slot`, plus
/// every pause taken so far, so neither a late turn nor the time a write takes adds up over a long body. Budget a
/// delivery had no bytes for is not saved up beyond `burstSlots`: a stream that was idle does not then burst, and
/// a turn that came late still catches up.
struct RatePacer: Equatable {
    /// How many slots' bytes may go at once after a late turn or an idle spell.
    static let burstSlots = 8

    /// A pause of `milliseconds` once `offset` bytes have gone.
    struct Pause: Equatable {
        let offset: Int
        let milliseconds: Int
    }

    /// Bytes per slot; nil: no rate, bytes go as soon as they are ready (pauses still apply).
    let bytesPerSlot: Int?
    /// A slot's length, in milliseconds.
    let slotMilliseconds: Int
    /// Pauses still to come, by offset.
    private(set) var pauses: [Pause]
    /// Bytes granted so far.
    private(set) var granted = 0
    private var startedAt: Double?
    /// Milliseconds of pauses taken, which push every later slot back.
    private var paused: Double = 0
    private var pausedUntil: Double?

    /// Bytes granted in one answer, and the milliseconds until the pacer can grant more (nil: it can grant
    /// whatever becomes ready, at once).
    struct Grant: Equatable {
        let bytes: Int
        let wake: Double?
    }

    /// A pacer at `bytesPerSecond` (nil: unpaced) for `length` bytes (nil: a stream, of no known length).
    ///
    /// A body is cut into about 50 slots of 10 to 500 ms, so it ends within a fiftieth of its time of the exact
    /// rate, whatever its size; a stream's slots are 50 ms. Each slot is one write, and a write costs the loop and
    /// the kernel the same whatever it carries, so a hundred slow connections cost little.
    init(bytesPerSecond: Int?, length: Int? = nil, pauses: [Pause] = []) {
        if let rate = bytesPerSecond {
            let rate = max(rate, 1)
            let slot = length.map { min(500, max(10, 1_000 * $0 / rate / 50)) } ?? 50
            self.init(bytesPerSlot: max(1, rate * slot / 1_000), slotMilliseconds: slot, pauses: pauses)
        } else {
            self.init(bytesPerSlot: nil, slotMilliseconds: 0, pauses: pauses)
        }
    }

    init(bytesPerSlot: Int?, slotMilliseconds: Int, pauses: [Pause] = []) {
        self.bytesPerSlot = bytesPerSlot
        self.slotMilliseconds = slotMilliseconds
        self.pauses = pauses.sorted { $0.offset < $1.offset }
    }

    /// Starts the schedule; returns the milliseconds until the first slot is due.
    mutating func start(at now: Double) -> Double {
        startedAt = now
        return Double(slotMilliseconds)
    }

    /// How many of `ready` bytes may go at `now`, and when to ask again.
    mutating func grant(ready: Int, now: Double) -> Grant {
        let startedAt = self.startedAt ?? now
        if self.startedAt == nil { self.startedAt = now }
        if let until = pausedUntil {
            guard now >= until else { return Grant(bytes: 0, wake: until - now) }
            pausedUntil = nil
        }
        if let pause = pauses.first, pause.offset <= granted, ready > 0 {
            // The pause is due before the next byte: it starts now and pushes the schedule back.
            pauses.removeFirst()
            paused += Double(pause.milliseconds)
            pausedUntil = now + Double(pause.milliseconds)
            return Grant(bytes: 0, wake: Double(pause.milliseconds))
        }
        var allowed = ready
        var wake: Double?
        if let bytesPerSlot {
            let slots = Int(((now - startedAt - paused) / Double(slotMilliseconds)).rounded(.down))
            let due = max(0, slots) * bytesPerSlot
            guard ready > 0 else { return Grant(bytes: 0, wake: nil) }
            // Budget not used for longer than `burstSlots` is forfeited: a token bucket of that size.
            granted = max(granted, due - bytesPerSlot * RatePacer.burstSlots)
            allowed = min(ready, max(0, due - granted))
            let nextSlot = (granted + allowed) / bytesPerSlot + 1
            wake = max(0, startedAt + paused + Double(nextSlot * slotMilliseconds) - now)
        }
        if let pause = pauses.first {
            allowed = min(allowed, pause.offset - granted)
            if granted + allowed == pause.offset, ready > allowed { wake = 0 }
        }
        granted += allowed
        return Grant(bytes: allowed, wake: ready > allowed ? wake : nil)
    }

    /// For a stream's outbox, dripped a turn at a time: how many of `ready` bytes may go at `now`, and the
    /// milliseconds until the next turn (at least 1; 1 when more could go at once).
    mutating func turn(ready: Int, now: Double) -> (bytes: Int, wake: Double) {
        let grant = grant(ready: ready, now: now)
        return (grant.bytes, grant.wake.map { max(1, $0) } ?? 1)
    }

    /// Pauses for a body of `length` bytes: one per started 64 KiB (at most 8), each at a seeded offset inside
    /// the body and of a seeded length within `range`. The same seed gives the same pauses.
    static func pauses(length: Int, range: ClosedRange<Int>, seed: UInt64) -> [Pause] {
        guard length > 1 else { return [] }
        var generator = SeededGenerator(seed: seed)
        let count = min(8, (length + 65_535) / 65_536)
        return (0..<count).map { _ in
            Pause(offset: Int.random(in: 1..<length, using: &generator),
                  milliseconds: range.lowerBound == range.upperBound
                      ? range.lowerBound : Int.random(in: range, using: &generator))
        }.sorted { $0.offset < $1.offset }
    }
}

extension RatePacer {
    /// The schedule a pacing directive asks for, over a body of `length` bytes (nil: not known, for a rate).
    init(pacing: FaultSpec.Pacing?, length: Int?, pauses: [Pause] = []) {
        switch pacing {
        case .bytesPerSecond(let rate)?:
            self.init(bytesPerSecond: rate, length: length, pauses: pauses)
        case .chunks(let count, let duration)?:
            self.init(bytesPerSlot: max(1, ((length ?? 0) + count - 1) / count),
                      slotMilliseconds: max(1, duration / max(1, count)), pauses: pauses)
        case nil:
            self.init(bytesPerSecond: nil, pauses: pauses)
        }
    }
}
