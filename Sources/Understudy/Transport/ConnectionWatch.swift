import CByteSearch
import CHeaderLines
import CLibevent
import Foundation

/// One client connection, watched for how long its current request takes to arrive and for how long it sits idle.
///
/// The idle timeout restarts on every byte, so a client that trickles a request head a byte at a time
/// (slowloris) holds its connection for ever. The watch notes when the first byte of a request arrives (an
/// `evbuffer` callback on the connection's input, disabled again until the request is complete) and the
/// loop's sweep closes a connection whose request is still incomplete after `requestReadTimeoutSeconds`.
///
/// The watch holds a reference on the bufferevent, so the pointer stays valid after evhttp frees its connection;
/// the sweep notices that (evhttp clears the callbacks when it lets go) and drops the reference, which closes the
/// socket. `@unchecked Sendable` is not needed: a watch lives and dies on its loop thread.
///
/// The idle timeout is the sweep's too (`hasIdled(at:longerThan:)`): the buffers' callbacks count the bytes that
/// move (ConnectionProgress.c), where timeouts on the bufferevent's events would update a timer each time evhttp
/// enables one, about three times a request.
final class ConnectionWatch {
    let bufferEvent: OpaquePointer
    /// Whether the connection speaks TLS.
    let isSecure: Bool
    /// When it was accepted (monotonic ms): a TLS handshake that has not finished by the request read timeout ends
    /// the connection, so half-open handshakes hold no socket for longer than a slow request would.
    private let acceptedAt = EventLoop.monotonicMilliseconds()
    /// When the first byte of the request being read arrived (monotonic ms); nil between requests.
    var readingSince: Double?
    /// The input buffer's callback, registered once and enabled only while the connection waits for a request's
    /// first byte. libevent walks a buffer's callbacks on every change, enabled or not, and evhttp changes the input
    /// buffer once per header line: that walk costs ~350 instructions a request, adding and removing the entry for
    /// each request ~420 (a `calloc` and a `free` among them).
    private var entry: OpaquePointer?
    /// Whether `entry` is enabled.
    private var listening = false
    /// Whether a delivery owns the connection (`takenOver()`).
    private var isTakenOver = false

    /// Decides a request's upload rate from its head, with its body's length (see `Pipeline.uploadRate(forHead:)`).
    private let uploadRate: (UnsafeRawBufferPointer) -> (bytesPerSecond: Int, bodyBytes: Int)?
    /// Milliseconds the slow-request watch allows the request on top of its timeout: the time the server's own
    /// read limit takes over the body.
    private(set) var readAllowance: Double = 0
    /// The read limit while a request's body is read at a rate; freed once the request is complete.
    private var readLimit: OpaquePointer?

    /// Bytes read and written so far, counted by C callbacks on the two buffers (their entries below); freed in
    /// `release()`, after the callbacks are removed.
    private let progress = UnsafeMutablePointer<understudy_progress>.allocate(capacity: 1)
    private var countingInput: OpaquePointer?
    private var countingOutput: OpaquePointer?
    /// The counts the sweep last saw, and since when (monotonic ms) the connection has waited on its client with
    /// neither moving.
    private var seenIn: UInt = 0
    private var seenOut: UInt = 0
    private var stillSince = EventLoop.monotonicMilliseconds()

    init(bufferEvent: OpaquePointer, isSecure: Bool,
         uploadRate: @escaping (UnsafeRawBufferPointer) -> (bytesPerSecond: Int, bodyBytes: Int)?) {
        self.bufferEvent = bufferEvent
        self.isSecure = isSecure
        self.uploadRate = uploadRate
    }

    /// When the TLS handshake began, while it is still under way; nil for a plain connection or a finished handshake.
    var handshakingSince: Double? {
        isSecure && ServerTLSContext.isHandshaking(bufferEvent) ? acceptedAt : nil
    }

    /// Starts watching: counts the bytes that move, answers evhttp's own refusals as JSON (RefusalPages.c), takes a
    /// reference on the bufferevent and listens for its first input. Returns false when libevent could not add a
    /// callback; the caller then frees the bufferevent.
    func start() -> Bool {
        progress.initialize(to: understudy_progress(bytes_in: 0, bytes_out: 0))
        countingInput = understudy_count_input(bufferevent_get_input(bufferEvent), progress)
        countingOutput = understudy_answer_refusals_as_json(bufferevent_get_output(bufferEvent), progress)
        guard countingInput != nil, countingOutput != nil else {
            removeCounters()
            progress.deallocate()
            return false
        }
        bufferevent_incref(bufferEvent)
        listenForFirstByte()
        return true
    }

    /// A delivery took the connection from evhttp (a WebSocket): no request is read on it again, so no request's
    /// read is timed, and it is never idle in the sweep's sense (a socket's quiet is its peers' business).
    func takenOver() {
        isTakenOver = true
        readingSince = nil
        liftReadLimit()
        if listening, let entry { evbuffer_cb_clear_flags(bufferevent_get_input(bufferEvent), entry, UInt32(EVBUFFER_CB_ENABLED)) }
        listening = false
    }

    /// Whether the connection has waited on its client for longer than `limit` ms with no byte moving, as the
    /// sweep sees it at `now`: for a request's bytes (reading is on, between requests too) or to take queued reply
    /// bytes. A connection whose request the server holds (a delay, a hung reply, a quiet stream) waits on nobody
    /// but the server, as with evhttp's own timeouts. The sweep looks every `sweepMilliseconds`, so it passes a
    /// `limit` one sweep longer than the timeout: a connection is never closed early, and at most two sweeps late.
    func hasIdled(at now: Double, longerThan limit: Double) -> Bool {
        guard !isTakenOver else { return false }
        let enabled = Int32(bufferevent_get_enabled(bufferEvent))
        let waiting = enabled & Int32(EV_READ) != 0 || (enabled & Int32(EV_WRITE) != 0 && unwrittenBytes > 0)
        let counts = progress.pointee
        guard waiting, counts.bytes_in == seenIn, counts.bytes_out == seenOut else {
            (seenIn, seenOut, stillSince) = (counts.bytes_in, counts.bytes_out, now)
            return false
        }
        return now - stillSince > limit
    }

    private func listenForFirstByte() {
        guard !listening else { return }
        let input = bufferevent_get_input(bufferEvent)
        if let entry {
            evbuffer_cb_set_flags(input, entry, UInt32(EVBUFFER_CB_ENABLED))
        } else {
            entry = evbuffer_add_cb(input, { buffer, info, argument in
                guard let buffer, let info, info.pointee.n_added > 0, let argument else { return }
                let watch = Unmanaged<ConnectionWatch>.fromOpaque(argument).takeUnretainedValue()
                watch.readingSince = EventLoop.monotonicMilliseconds()
                watch.limitReading(buffer)
                // Off until this request is complete (libevent allows a callback to change its own flags).
                if let entry = watch.entry { evbuffer_cb_clear_flags(buffer, entry, UInt32(EVBUFFER_CB_ENABLED)) }
                watch.listening = false
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        listening = entry != nil
    }

    /// The request being read is complete: wait for the next one's first byte. Returns when this one's first byte
    /// arrived (nil for a request that was already buffered, pipelined behind the one before).
    func requestArrived() -> Double? {
        defer { readingSince = nil }
        liftReadLimit()
        listenForFirstByte()
        return readingSince
    }

    /// Whether evhttp has freed its connection. `bufferevent_free` clears every callback; the event callback is
    /// the one to look at, because evhttp clears the read callback itself while it writes each reply.
    var isReleasedByEvhttp: Bool {
        var eventCallback: bufferevent_event_cb?
        bufferevent_getcb(bufferEvent, nil, nil, &eventCallback, nil)
        return eventCallback == nil
    }

    /// Bytes queued for the client that the socket has not taken yet.
    var unwrittenBytes: Int {
        evbuffer_get_length(bufferevent_get_output(bufferEvent))
    }

    /// Ends the connection from outside: evhttp then reads end-of-file and frees it as it would any other.
    func close() {
        let socket = bufferevent_getfd(bufferEvent)
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        readingSince = nil
    }

    /// Lets go of the bufferevent; the last reference closes the socket.
    func release() {
        liftReadLimit()
        if let entry { evbuffer_remove_cb_entry(bufferevent_get_input(bufferEvent), entry) }
        entry = nil
        listening = false
        removeCounters()
        progress.deallocate()
        bufferevent_decref(bufferEvent)
    }

    private func removeCounters() {
        if let countingInput { evbuffer_remove_cb_entry(bufferevent_get_input(bufferEvent), countingInput) }
        if let countingOutput { evbuffer_remove_cb_entry(bufferevent_get_output(bufferEvent), countingOutput) }
        (countingInput, countingOutput) = (nil, nil)
    }

    /// When the first bytes of a request hold its whole head, asks what rate its body is to be read at and
    /// limits the connection's reading to it (libevent's token bucket, refilled every 50 ms) until the request
    /// is complete. The first read may already hold part of the body: up to 16 KiB arrive at full speed.
    private func limitReading(_ input: OpaquePointer) {
        guard let head = ConnectionWatch.head(in: input), let (rate, bodyBytes) = uploadRate(head) else { return }
        // Slow rates refill once a second, so a bucket never rounds to zero bytes.
        let tickMilliseconds = rate >= 1_000 ? 50 : 1_000
        let perTick = max(1, rate * tickMilliseconds / 1_000)
        var tick = timeval(tv_sec: tickMilliseconds / 1_000, tv_usec: Int((tickMilliseconds % 1_000) * 1_000))
        guard let limit = ev_token_bucket_cfg_new(perTick, perTick, Int.max, Int.max, &tick) else { return }
        liftReadLimit()
        readLimit = limit
        bufferevent_set_rate_limit(bufferEvent, limit)
        // The server is the one reading slowly: the slow-request watch allows the client the time the limit takes.
        readAllowance = Double(bodyBytes) * 1_000 / Double(rate)
    }

    /// The request head at the start of `input` (up to its blank line), if it has arrived whole. It is nearly
    /// always in the buffer's first chain, read in place; otherwise the buffer is searched and made contiguous.
    private static func head(in input: OpaquePointer) -> UnsafeRawBufferPointer? {
        let blankLine = UnsafeRawPointer(ConnectionWatch.blankLine.utf8Start)
        var chain = iovec()  // evbuffer_iovec is iovec where there is one (Linux and Darwin)
        if evbuffer_peek(input, -1, nil, &chain, 1) > 0, let base = chain.iov_base,
           let end = understudy_find_bytes(base, chain.iov_len, blankLine, 4) {
            return UnsafeRawBufferPointer(start: base, count: end - UnsafeRawPointer(base) + 4)
        }
        let end = evbuffer_search(input, blankLine.assumingMemoryBound(to: CChar.self), 4, nil)
        guard end.pos >= 0, let head = evbuffer_pullup(input, end.pos + 4) else { return nil }
        return UnsafeRawBufferPointer(start: head, count: end.pos + 4)
    }

    /// A literal, so passing it to C copies nothing (a `String` argument is copied to the heap each call).
    private static let blankLine: StaticString = "\r\n\r\n"

    private func liftReadLimit() {
        readAllowance = 0
        guard let readLimit else { return }
        bufferevent_set_rate_limit(bufferEvent, nil)
        ev_token_bucket_cfg_free(readLimit)
        self.readLimit = nil
    }
}
