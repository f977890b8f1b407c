@testable import Understudy

/// Drives a delivery as the writer does, against a buffer and a clock that jumps to each wake: what a client would
/// have received, when, and how the reply ended. No socket, no loop.
struct DeliveryDriver {
    struct Write: Equatable {
        let at: Double
        let bytes: [UInt8]
    }

    /// The `Content-Length` of the head, once sent (nil inside: chunked).
    var head: Int??
    /// The status and headers of a head that came from elsewhere (`replyHead`: a proxied reply).
    var replyHead: (status: Int, headers: HTTPHeaders)?
    var writes: [Write] = []
    var raw: [UInt8] = []
    /// The step that ended the reply, if one did.
    var ending: DeliveryStep?
    var now: Double
    var turns = 0
    /// What the socket has not taken, as the delivery sees it at each turn.
    var unflushedBytes: (Double) -> Int = { _ in 0 }
    /// Set by the delivery's waker; the next `run` takes a turn at once.
    private let woken = Flag()

    final class Flag {
        var isSet = false
    }

    init(startingAt now: Double = 1_000) {
        self.now = now
    }

    /// Everything written to the body, in order.
    var body: [UInt8] { writes.flatMap(\.bytes) }
    var text: String { String(decoding: body, as: UTF8.self) }

    /// Turns until the reply ends, the delivery waits to be woken, or the clock passes `until`.
    mutating func run(_ delivery: inout some Delivery, until limit: Double = .infinity, maximumTurns: Int = 100_000) {
        let flag = woken
        while ending == nil, turns < maximumTurns {
            flag.isSet = false
            let context = DeliveryContext(now: now, unflushedBytes: unflushedBytes(now),
                                          waker: DeliveryWaker { flag.isSet = true })
            let turn = delivery.advance(context)
            turns += 1
            apply(turn.steps)
            guard ending == nil else { return }
            if flag.isSet { continue }
            guard let wake = turn.wake, now + wake <= limit else { return }
            now += wake
        }
    }

    /// One turn with `bytes` from the client, as the writer takes one for each read of a connection the delivery
    /// owns (`Delivery.readsClient`); returns the milliseconds to the turn it asks for next.
    @discardableResult
    mutating func receive(_ bytes: [UInt8], _ delivery: inout some Delivery) -> Double? {
        let turn = delivery.advance(DeliveryContext(now: now, unflushedBytes: unflushedBytes(now), received: bytes))
        turns += 1
        apply(turn.steps)
        return turn.wake
    }

    /// Steps the delivery returns outside a turn (`shutDown`), performed as the writer performs them.
    mutating func perform(_ steps: [DeliveryStep]) {
        apply(steps)
    }

    private mutating func apply(_ steps: [DeliveryStep]) {
        for step in steps {
            switch step {
            case .head(let contentLength): head = .some(contentLength)
            case .replyHead(let status, let headers, let contentLength):
                head = .some(contentLength)
                replyHead = (status, headers)
            case .body(let bytes): if !bytes.isEmpty { writes.append(Write(at: now, bytes: bytes)) }
            case .raw(let bytes): raw += bytes
            case .end, .close, .closeWhenFlushed, .hang:
                ending = step
                return
            }
        }
    }
}
