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
        /// Its place in the order sockets opened in: `id` is `ws-` and this number.
        let number: Int
        var id: String { "ws-\(number)" }
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

        fileprivate init(number: Int, path: String, session: String?, room: String?, openedAt: Double, waker: DeliveryWaker?) {
            self.number = number
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

    /// By number: a socket leaves in constant time (an array's removal made 10,000 closes at once quadratic).
    private var mailboxes: [Int: Mailbox] = [:]
    private var lastID = 0
    private let clock: @Sendable () -> Double

    init(clock: @escaping @Sendable () -> Double) {
        self.clock = clock
    }

    /// Every open socket, oldest first.
    var open: [Mailbox] { mailboxes.values.sorted { $0.number < $1.number } }

    /// A socket opened: its mailbox, under a new id (`ws-1`, `ws-2`, …).
    func opened(path: String, session: String?, room: String?, waker: DeliveryWaker?) -> Mailbox {
        lastID += 1
        let mailbox = Mailbox(number: lastID, path: path, session: session, room: room, openedAt: clock(), waker: waker)
        mailboxes[lastID] = mailbox
        return mailbox
    }

    /// A socket is gone.
    func closed(_ mailbox: Mailbox) {
        mailboxes[mailbox.number] = nil
    }

    /// Pushes `push` to every open socket `matches` picks; how many it reached.
    @discardableResult
    func push(_ push: Push, where matches: (Mailbox) -> Bool) -> Int {
        var reached = 0
        for mailbox in mailboxes.values where matches(mailbox) && mailbox.pending.count < WebSocketHub.maximumPending {
            mailbox.pending.append(push)
            mailbox.waker?.wake()
            reached += 1
        }
        return reached
    }
}
