/// A document's event stream (`--spec`, a `text/event-stream` response), as a delivery: the events the mock wrote,
/// sent with the request's stream faults (dropped, reset or stalled after an event, an event broken or cut, dripped
/// in chunks, other line endings, a network profile's rate), then the end of the chunked body.
struct DocumentEvents: Delivery {
    private var events: EventBytes
    private var started = false

    init(_ body: [UInt8], faults: FaultSpec.StreamFaults) {
        events = EventBytes(faults: faults)
        events.receive(body)
        events.upstreamEnded()
    }

    var prefersSmallSendBuffer: Bool { true }

    /// Ends the stream cleanly: the chunked body's last chunk.
    func shutDown() -> [DeliveryStep] { [.end] }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        var steps: [DeliveryStep] = []
        if !started {
            started = true
            steps.append(.head(contentLength: nil))
        }
        let piece = events.nextPiece(now: context.now)
        if !piece.bytes.isEmpty { steps.append(.body(piece.bytes)) }
        if !events.outbox.isEmpty { return DeliveryTurn(steps, wake: piece.wake) }
        switch events.ending {
        case .close(let reset)?: return DeliveryTurn(steps + [.closeWhenFlushed(reset: reset)])
        case .stall?: return DeliveryTurn(steps + [.hang])
        case nil: return DeliveryTurn(steps + [.end])
        }
    }
}

/// A document's event stream as the plan carries it to its delivery.
struct DocumentEventsPlan: Equatable {
    var body: [UInt8]
    var faults: FaultSpec.StreamFaults
}
