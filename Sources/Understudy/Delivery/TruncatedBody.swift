/// A body cut short: the head announces the whole body, part of it is sent, then the connection closes.
struct TruncatedBody: Delivery {
    enum Cut: Equatable {
        /// The first `bytes` bytes, under a `Content-Length` for the whole body.
        case bytes(Int)
        /// Chunked, three of four quarters, with no last chunk: the client sees the chunked body end early.
        case chunked
    }

    let body: [UInt8]
    let cut: Cut

    func advance(_ context: DeliveryContext) -> DeliveryTurn {
        switch cut {
        case .bytes(let count):
            return DeliveryTurn([.head(contentLength: body.count), .body(Array(body.prefix(count))),
                                 .closeWhenFlushed(reset: false)])
        case .chunked:
            var steps: [DeliveryStep] = [.head(contentLength: nil)]
            let piece = max(1, body.count / 4)
            var sent = 0
            while body.count - sent > piece {
                steps.append(.body(Array(body[sent..<(sent + piece)])))
                sent += piece
            }
            steps.append(.closeWhenFlushed(reset: false))
            return DeliveryTurn(steps)
        }
    }
}
