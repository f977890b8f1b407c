import UnderstudyWebSocket

/// Every open WebSocket of one server, by id: what the admin API lists (`GET /__understudy/sockets`), pushes to
/// (`POST /__understudy/sockets/send`) and closes, and what a chat room broadcasts through. Lives on the loop
/// thread, as the sockets do.
///
/// A socket is told of a push through its mailbox and a wake-up; it takes the push on its own turn, through its own
/// faults, so a pushed message is numbered, lagged and broken like any other.
final class WebSocketHub {
    /// What one socket is sent from outside its own conversation.
    enum Push: Equatable {
        case message(WebSocketFrame.Opcode, [UInt8])
        /// The closing handshake with this code and reason.
        case close(WebSocketCloseCode, String)
        /// A reset: no close frame.
        case reset
    }

    /// One open socket, as listed, with what waits for it.
    final class Mailbox {
        let id: String
        let path: String
        let session: String?
        /// The chat room, for `/ws/chat`.
        let room: String?
        /// Wall-clock seconds when it opened.
        let openedAt: Double
        var sent = 0
        var received = 0
        fileprivate(set) var pending: [Push] = []
        fileprivate let waker: DeliveryWaker?

        fileprivate init(id: String, path: String, session: String?, room: String?, openedAt: Double, waker: DeliveryWaker?) {
            self.id = id
            self.path = path
            self.session = session
            self.room = room
            self.openedAt = openedAt
            self.waker = waker
        }

        /// What was pushed since the last turn, in order.
        func takePending() -> [Push] {
            defer { pending.removeAll() }
            return pending
        }
    }

    /// How many pushes may wait for one socket: a socket whose turns stall cannot make the hub grow without bound.
    static let maximumPending = 1_024

    private var mailboxes: [Mailbox] = []
    private var lastID = 0
    private let clock: @Sendable () -> Double

    init(clock: @escaping @Sendable () -> Double) {
        self.clock = clock
    }

    /// Every open socket, oldest first.
    var open: [Mailbox] { mailboxes }

    /// A socket opened: its mailbox, under a new id (`ws-1`, `ws-2`, …).
    func opened(path: String, session: String?, room: String?, waker: DeliveryWaker?) -> Mailbox {
        lastID += 1
        let mailbox = Mailbox(id: "ws-\(lastID)", path: path, session: session, room: room, openedAt: clock(), waker: waker)
        mailboxes.append(mailbox)
        return mailbox
    }

    /// A socket is gone.
    func closed(_ mailbox: Mailbox) {
        mailboxes.removeAll { $0 === mailbox }
    }

    /// Pushes `push` to every open socket `matches` picks; how many it reached.
    @discardableResult
    func push(_ push: Push, where matches: (Mailbox) -> Bool) -> Int {
        var reached = 0
        for mailbox in mailboxes where matches(mailbox) && mailbox.pending.count < WebSocketHub.maximumPending {
            mailbox.pending.append(push)
            mailbox.waker?.wake()
            reached += 1
        }
        return reached
    }
}
