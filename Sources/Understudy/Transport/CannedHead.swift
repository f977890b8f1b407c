import CHeaderLines
import CLibevent
import Foundation

/// Writes a canned reply's head into evhttp without allocating a field: the status line carries every header line
/// up to and including `ETag`, and two header fields the loop owns, `Date` and `Content-Length`, are linked into
/// the request's output headers for the one `evhttp_send_reply` and unlinked right after.
///
/// evhttp writes a head with one `evbuffer_add_printf` (a whole `vsnprintf` pass, ~1.3k instructions) for the
/// status line and one per field, and `evhttp_add_header` costs three `malloc`s and frees per field. The status
/// line is `"HTTP/%d.%d %d %s\r\n"`, its `%s` the reason phrase it is given, which evhttp copies as it is: here
/// that phrase is followed by the reply's header lines, joined with CRLF, so they go out in the same pass. evhttp
/// looks `Date` and `Content-Length` up by name and adds them when missing, so those two stay fields (`Date`
/// formatted once a second). It would add its default `Content-Type` too, not finding one among the fields: the
/// servers' default is cleared around the call when the reply's head has its own (it always does). The bytes on
/// the wire are those of the field-by-field path, in the same order (tests compare them).
///
/// One per loop, used only on the loop thread and only inside `send`, so a single set of buffers suffices.
final class CannedHead {
    private static let fieldCount = 2
    static let blockCapacity = CannedReply.maximumHeadBytes
    private let fields: UnsafeMutablePointer<evkeyval>
    /// The reason phrase and the header lines that follow it, NUL-terminated.
    private let block: UnsafeMutablePointer<CChar>
    private let date: UnsafeMutablePointer<CChar>
    private let length: UnsafeMutablePointer<CChar>
    private let dateKey = strdup("Date")!
    private let lengthKey = strdup("Content-Length")!
    private var dateSecond = Int.min
    private let resetLabel = CannedReply.resetLabel
    /// The reset time last written, and its digits (it changes once per rate-limit window).
    private var reset = (value: Int.min, digits: [CChar]())
    /// The evhttp servers replies are sent through, whose default `Content-Type` is cleared around a send.
    var servers: [OpaquePointer] = []

    init() {
        fields = .allocate(capacity: CannedHead.fieldCount)
        fields.initialize(repeating: evkeyval(), count: CannedHead.fieldCount)
        block = .allocate(capacity: CannedHead.blockCapacity)
        date = .allocate(capacity: 64)
        length = .allocate(capacity: 24)
        fields[0].key = dateKey
        fields[0].value = date
        fields[1].key = lengthKey
        fields[1].value = length
    }

    deinit {
        fields.deallocate()
        block.deallocate()
        date.deallocate()
        length.deallocate()
        free(dateKey)
        free(lengthKey)
    }

    /// evhttp's default `Content-Type` (its own is this text), set on each server so it can be restored.
    static let defaultContentType: StaticString = "text/html; charset=ISO-8859-1"

    /// Sends `reply` on `request` with these rate-limit values; the caller has added the body.
    func send(_ reply: CannedReply, on request: OpaquePointer, headers: UnsafeMutablePointer<evkeyvalq>,
              remaining: Int, resetsAt: Int) {
        var end = copy(UnsafeBufferPointer(reply.prefix), at: 0)
        if reply.liveCounters {
            end = writeDecimal(remaining, at: end)
            end = resetLabel.withUnsafeBufferPointer { copy($0, at: end) }
            if reset.value != resetsAt { reset = (resetsAt, Array(String(resetsAt).utf8).map { CChar(bitPattern: $0) }) }
            end = reset.digits.withUnsafeBufferPointer { copy($0, at: end) }
        }
        end = copy(UnsafeBufferPointer(reply.suffix), at: end)
        block[end] = 0
        length.update(from: reply.contentLength.baseAddress!, count: reply.contentLength.count)
        updateDate()
        understudy_link_fields(headers, fields, Int32(CannedHead.fieldCount))
        if reply.setsContentType {
            for server in servers { evhttp_set_default_content_type(server, nil) }
        }
        evhttp_send_reply(request, Int32(reply.status), block, nil)
        if reply.setsContentType {
            let type = UnsafeRawPointer(CannedHead.defaultContentType.utf8Start).assumingMemoryBound(to: CChar.self)
            for server in servers { evhttp_set_default_content_type(server, type) }
        }
        understudy_unlink_fields(headers, fields, Int32(CannedHead.fieldCount))
    }

    private func copy(_ bytes: UnsafeBufferPointer<CChar>, at offset: Int) -> Int {
        if let base = bytes.baseAddress { (block + offset).update(from: base, count: bytes.count) }
        return offset + bytes.count
    }

    /// Writes `value` in decimal at `offset`; returns the offset after it. Digits are written straight into the
    /// block, last first, once their count is known.
    private func writeDecimal(_ value: Int, at offset: Int) -> Int {
        var position = offset
        if value < 0 {
            block[position] = CChar(UInt8(ascii: "-"))
            position += 1
        }
        var rest = value.magnitude
        var digits = 1
        var probe = rest
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var index = position + digits
        repeat {
            index -= 1
            block[index] = CChar(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        return position + digits
    }

    /// evhttp's own `Date`, from the same clock (`time`), reformatted only when the second changes.
    private func updateDate() {
        let now = Int(time(nil))
        guard now != dateSecond else { return }
        dateSecond = now
        let text = Array(Timestamp.httpDate(Double(now)).utf8CString)
        text.withUnsafeBufferPointer { date.update(from: $0.baseAddress!, count: min($0.count, 64)) }
    }
}
