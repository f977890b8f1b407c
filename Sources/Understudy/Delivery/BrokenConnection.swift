/// A connection fault: the connection closes with no reply, resets before or after the head, hangs, or carries
/// random bytes instead of HTTP.
struct BrokenConnection: Delivery {
    enum Kind: Equatable {
        /// A FIN with no reply.
        case empty
        /// An RST, before anything is sent or once the head (announcing `contentLength` body bytes) has gone out.
        case reset(afterHeaders: Bool, contentLength: Int)
        /// Nothing at all, for as long as the client waits.
        case hang
        /// These bytes instead of a reply, then a FIN.
        case garbage([UInt8])
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    func advance(_ context: DeliveryContext) -> DeliveryTurn {
        switch kind {
        case .empty:
            DeliveryTurn([.close(reset: false)])
        case .reset(afterHeaders: false, _):
            DeliveryTurn([.close(reset: true)])
        case .reset(afterHeaders: true, let contentLength):
            DeliveryTurn([.head(contentLength: contentLength), .closeWhenFlushed(reset: true)])
        case .hang:
            // Journaled when the connection closes, so its duration says how long the client was held.
            DeliveryTurn([.hang])
        case .garbage(let bytes):
            DeliveryTurn([.raw(bytes), .closeWhenFlushed(reset: false)])
        }
    }

    /// A hang would never end by itself; the other faults are over within a turn.
    func shutDown() -> [DeliveryStep] {
        kind == .hang ? [.close(reset: false)] : []
    }
}
