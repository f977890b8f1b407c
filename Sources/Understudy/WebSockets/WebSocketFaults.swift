import UnderstudyWebSocket
import UnderstudyFaultSpec

/// The faults one WebSocket carries out, read from its upgrade's fault spec. Messages are numbered as the server
/// sends them, from 1, as a stream's events are: the same `drop-after`, `reset-after`, `cut-mid-event`,
/// `stall-after`, `malformed-event` and `chunk` act on either, and `close`, `close-after`, `corrupt`, `skip`,
/// `duplicate` and `lag` on sockets only.
struct WebSocketFaults: Equatable, Sendable {
    /// The closing handshake, with `closeCode`, after this many messages (`drop-after`).
    var closeAfterMessages: Int?
    /// The closing handshake this many milliseconds after the socket opened (`close-after`).
    var closeAfterMilliseconds: Int?
    /// `close=` with neither trigger: the socket closes as soon as it opens.
    var closesAtOnce = false
    var closeCode = WebSocketCloseCode.normal
    /// The close frame's reason (`message=`).
    var closeReason = ""
    /// A reset (no close frame) after this many messages (`reset-after`).
    var resetAfterMessages: Int?
    /// This message is cut halfway through its frame and the connection reset (`cut-mid-event`).
    var cutMessage: Int?
    /// Nothing more is sent, pings go unanswered, after this many messages (`stall-after`; 0: from the start).
    var stallAfterMessages: Int?
    /// This message is sent broken (`malformed-event`, or the first with only `corrupt`), as `corruption` says.
    var corruptMessage: Int?
    var corruption = Fault.FrameCorruption.utf8
    /// This message is left out (`skip`).
    var skipMessage: Int?
    /// This message is sent twice (`duplicate`).
    var duplicateMessage: Int?
    /// Each message is sent as frames of at most this many payload bytes (`chunk`).
    var frameBytes: Int?
    /// Each message waits a time drawn from this range of milliseconds first (`lag`).
    var lag: ClosedRange<Int>?
    /// The socket's bytes go out no faster than this (a network profile's download rate).
    var bytesPerSecond: Int?

    init() {}

    /// What `spec` asks of a socket; a spec with no socket directive asks nothing.
    init(_ spec: FaultSpec?) {
        guard let spec else { return }
        let stream = spec.stream, socket = spec.socket
        closeAfterMessages = stream.dropAfter
        closeAfterMilliseconds = socket.closeAfterMilliseconds
        if let code = socket.closeCode {
            closeCode = WebSocketCloseCode(rawValue: UInt16(code))
            closesAtOnce = stream.dropAfter == nil && socket.closeAfterMilliseconds == nil
        }
        // The grammar refuses `status` beside a close, so a message here is the close's reason.
        if socket.closeCode != nil || socket.closeAfterMilliseconds != nil {
            closeReason = spec.message ?? ""
        }
        resetAfterMessages = stream.resetAfter
        cutMessage = stream.cutMidEvent
        stallAfterMessages = stream.stallAfter
        corruptMessage = stream.malformedEvent ?? (socket.corruption == nil ? nil : 1)
        corruption = socket.corruption ?? .utf8
        skipMessage = socket.skip
        duplicateMessage = socket.duplicate
        frameBytes = stream.chunkSize
        lag = socket.lag
        bytesPerSecond = stream.bytesPerSecond
    }
}
