import CHeaderLines
import CLibevent
import Foundation

/// Writes a canned reply's head into evhttp without allocating: three header fields the loop owns, linked into
/// the request's output headers for the one `evhttp_send_reply` and unlinked right after.
///
/// `evhttp_add_header` costs three `malloc`s and frees per field, and evhttp formats `Date` and `Content-Length`
/// itself with `snprintf`; for a small reply that is a large share of the server's work. Here the first field
/// carries every header line up to and including `ETag` as one value (the lines joined with CRLF, written out
/// by evhttp's `"%s: %s\r\n"` exactly as separate fields would be), the second is `Date`, formatted
/// once a second, and the third `Content-Length`; evhttp finds both and adds neither. The bytes on the wire are
/// the same as the field-by-field path's, in the same order.
///
/// One per loop, used only on the loop thread and only inside `send`, so a single set of buffers suffices.
final class CannedHead {
    private static let fieldCount = 3
    static let blockCapacity = 2_048
    private let fields: UnsafeMutablePointer<evkeyval>
    private let name: UnsafeMutablePointer<CChar>
    private let block: UnsafeMutablePointer<CChar>
    private let date: UnsafeMutablePointer<CChar>
    private let length: UnsafeMutablePointer<CChar>
    private let dateKey = strdup("Date")!
    private let lengthKey = strdup("Content-Length")!
    private var dateSecond = Int.min
    private let resetLabel = CannedReply.resetLabel

    init() {
        fields = .allocate(capacity: CannedHead.fieldCount)
        fields.initialize(repeating: evkeyval(), count: CannedHead.fieldCount)
        name = .allocate(capacity: 128)
        block = .allocate(capacity: CannedHead.blockCapacity)
        date = .allocate(capacity: 64)
        length = .allocate(capacity: 24)
        fields[0].key = name
        fields[0].value = block
        fields[1].key = dateKey
        fields[1].value = date
        fields[2].key = lengthKey
        fields[2].value = length
    }

    deinit {
        fields.deallocate()
        name.deallocate()
        block.deallocate()
        date.deallocate()
        length.deallocate()
        free(dateKey)
        free(lengthKey)
    }

    /// Whether `reply`'s head fits the buffers: checked when a reply is canned (a resource reply always fits; a
    /// fault spec near its 1 KiB cap may not, and is then answered by the pipeline instead).
    static func fits(_ reply: CannedReply) -> Bool {
        reply.firstName.count < 128 && reply.prefix.count + reply.suffix.count + 64 < blockCapacity
    }

    /// Sends `reply` on `request` with these rate-limit values; the caller has added the body.
    func send(_ reply: CannedReply, on request: OpaquePointer, headers: UnsafeMutablePointer<evkeyvalq>,
              remaining: Int, resetsAt: Int) {
        name.update(from: reply.firstName.baseAddress!, count: reply.firstName.count)
        var end = copy(UnsafeBufferPointer(reply.prefix), at: 0)
        end = writeDecimal(remaining, at: end)
        end = resetLabel.withUnsafeBufferPointer { copy($0, at: end) }
        end = writeDecimal(resetsAt, at: end)
        end = copy(UnsafeBufferPointer(reply.suffix), at: end)
        block[end] = 0
        length.update(from: reply.contentLength.baseAddress!, count: reply.contentLength.count)
        updateDate()
        understudy_link_fields(headers, fields, Int32(CannedHead.fieldCount))
        evhttp_send_reply(request, Int32(reply.status), reply.reasonPhrase, nil)
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
