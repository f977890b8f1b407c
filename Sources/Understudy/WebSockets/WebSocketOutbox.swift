/// A paced socket's bytes on their way out (a network profile's download rate): the frames a turn writes wait here
/// and leave no faster than the rate, in order, and a step that ends the connection waits until they have all gone.
/// A value, as the other delivery values are: given a turn's steps and the time, it says what to write now and
/// when to ask again.
struct WebSocketOutbox {
    private var pacer: RatePacer
    /// The bytes not yet let go, from `start` on: the front is dropped by moving `start`, and the array is compacted
    /// only once most of it has gone (a removal from the front each turn moved the rest each time).
    private var waiting: [UInt8] = []
    private var start = 0
    /// Steps that came after bytes still waiting (the end of the connection).
    private var held: [DeliveryStep] = []

    init(bytesPerSecond: Int) {
        pacer = RatePacer(bytesPerSecond: bytesPerSecond)
    }

    /// `steps` as the rate lets them go at `now`, and the milliseconds until more may (nil: nothing waits).
    mutating func pass(_ steps: [DeliveryStep], now: Double) -> (steps: [DeliveryStep], wake: Double?) {
        var out: [DeliveryStep] = []
        for step in steps {
            if case .raw(let bytes) = step {
                waiting += bytes
            } else if isEmpty, held.isEmpty {
                out.append(step)
            } else {
                held.append(step)
            }
        }
        var wake: Double?
        if !isEmpty {
            let (count, next) = pacer.turn(ready: waiting.count - start, now: now)
            if count > 0 {
                out.append(.raw(Array(waiting[start..<(start + count)])))
                start += count
                if start == waiting.count {
                    waiting = []
                    start = 0
                } else if start * 2 >= waiting.count {
                    waiting.removeFirst(start)
                    start = 0
                }
            }
            wake = isEmpty ? nil : next
        }
        if isEmpty, !held.isEmpty {
            out += held
            held = []
        }
        return (out, wake)
    }

    /// Nothing waits to go.
    private var isEmpty: Bool { start == waiting.count }
}
