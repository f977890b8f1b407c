import CLibevent
import Foundation
import Testing
@testable import Understudy

/// A TLS connection's output keeps its first record's worth in one piece, so a reply's head and body leave as one
/// TLS record (one `SSL_write` per piece in `bufferevent_openssl`), with every byte as it was added.
@Suite struct ServerTLSContextRecordsTests {
    /// A new buffer that coalesces as a TLS connection's output does; the caller frees it.
    private func coalescingOutput() throws -> OpaquePointer {
        let output = try #require(evbuffer_new())
        ServerTLSContext.coalesceRecords(in: output)
        return output
    }

    /// How many pieces the first `bytes` of `output` span.
    private func pieces(_ output: OpaquePointer, front bytes: Int) -> Int32 {
        var first = iovec()
        return evbuffer_peek(output, bytes, nil, &first, 1)
    }

    private func contents(_ output: OpaquePointer) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: evbuffer_get_length(output))
        _ = bytes.withUnsafeMutableBytes { evbuffer_copyout(output, $0.baseAddress, $0.count) }
        return bytes
    }

    /// Adds a head line by line, as evhttp does, then `body` by reference, as a canned reply's is added.
    private func addReply(to output: OpaquePointer, body: [UInt8]) -> [UInt8] {
        let lines = ["HTTP/1.1 200 OK\r\n", "Content-Type: application/json\r\n", "Content-Length: \(body.count)\r\n", "\r\n"]
        for line in lines { _ = evbuffer_add(output, line, line.utf8.count) }
        let stored = UnsafeMutableRawBufferPointer.allocate(byteCount: body.count, alignment: 1)
        stored.copyBytes(from: body)
        evbuffer_add_reference(output, stored.baseAddress, stored.count, { _, _, stored in stored?.deallocate() },
                               stored.baseAddress)
        return Array(lines.joined().utf8) + body
    }

    @Test func aSmallReplyIsOnePieceWithItsBytes() throws {
        let output = try coalescingOutput()
        defer { evbuffer_free(output) }
        let sent = addReply(to: output, body: Array(repeating: UInt8(ascii: "x"), count: 1_489))
        #expect(pieces(output, front: evbuffer_get_length(output)) == 1)
        #expect(contents(output) == sent)
    }

    @Test func aLargeReplyHasItsFirstRecordInOnePieceAndTheRestUncopied() throws {
        let output = try coalescingOutput()
        defer { evbuffer_free(output) }
        let body = (0..<45_726).map { UInt8(truncatingIfNeeded: $0) }
        let sent = addReply(to: output, body: body)
        #expect(pieces(output, front: ServerTLSContext.recordCapacity) == 1)
        #expect(pieces(output, front: evbuffer_get_length(output)) == 2)
        #expect(contents(output) == sent)
    }

    @Test func aReplyAddedBehindUnsentBytesJoinsThem() throws {
        let output = try coalescingOutput()
        defer { evbuffer_free(output) }
        let first = addReply(to: output, body: Array("{\"id\":1}".utf8))
        let second = addReply(to: output, body: Array("{\"id\":2}".utf8))
        #expect(pieces(output, front: evbuffer_get_length(output)) == 1)
        #expect(contents(output) == first + second)
    }
}
