import CLibevent
import Foundation

extension ServerTLSContext {
    /// The most one TLS record carries (OpenSSL's `SSL3_RT_MAX_PLAIN_LENGTH`).
    static let recordCapacity = 16_384

    /// Keeps the front of a TLS connection's unsent output (up to one record's worth) in one piece, so a small reply
    /// leaves as one TLS record in one write(2).
    ///
    /// `bufferevent_openssl` makes one `SSL_write`, so one record and one write(2), per contiguous piece of its
    /// output buffer, and evhttp leaves a reply's head and body in separate pieces: every reply cost two records,
    /// two system calls and, on the client, four reads. Copying the head and the first 16 KiB of the body together
    /// costs far less (bench/NOTES.md, "HTTPS"). The callback runs on every change to the buffer, before the loop
    /// next writes, so the whole reply is in place when the write comes; it copies only while the front is in
    /// pieces, at most 16 KiB each time.
    static func coalesceRecords(in output: OpaquePointer) {
        _ = evbuffer_add_cb(output, { output, info, _ in
            guard let output, let info, info.pointee.n_added > 0 else { return }
            let front = min(evbuffer_get_length(output), ServerTLSContext.recordCapacity)
            var first = iovec()  // evbuffer_iovec, which libevent defines as iovec
            if evbuffer_peek(output, front, nil, &first, 1) > 1 {
                _ = evbuffer_pullup(output, front)
            }
        }, nil)
    }
}
