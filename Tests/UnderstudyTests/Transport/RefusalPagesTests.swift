import CHeaderLines
import CLibevent
import Testing

/// The output-buffer callback that turns evhttp's own error pages into JSON, fed what evhttp adds to a connection's
/// output (its head line by line, a blank line, then the page in one piece), without a socket.
@Suite struct RefusalPagesTests {
    /// evhttp's head for a 413 page, in the pieces it adds it in.
    static let headLines = ["HTTP/1.1 413 Request Entity Too Large\r\n", "Content-Type: text/html\r\n",
                            "Connection: close\r\n", "Date: Tue, 01 Dec 2026 23:00:00 GMT\r\n", "Content-Length: 120\r\n", "\r\n"]
    static let head = headLines.joined()
    static let page = "<HTML><HEAD>\n<TITLE>413 Request Entity Too Large</TITLE>\n</HEAD><BODY>\n"
        + "<H1>Request Entity Too Large</H1>\n</BODY></HTML>\n"
    static let message = #"{"message":"Request body too large: it is over the server's body size limit (or its chunked encoding is malformed)"}"#

    /// What `output` holds after `pieces` are added one by one, each a change the callback sees.
    private func output(after pieces: [String], frozen: Bool = false) -> (text: String, stillFrozen: Bool) {
        let buffer = evbuffer_new()!
        // Kept by the callback past the call, so not an inout argument's temporary address.
        let progress = UnsafeMutablePointer<understudy_progress>.allocate(capacity: 1)
        progress.initialize(to: understudy_progress(bytes_in: 0, bytes_out: 0))
        defer {
            evbuffer_free(buffer)
            progress.deallocate()
        }
        #expect(understudy_answer_refusals_as_json(buffer, progress) != nil)
        if frozen { evbuffer_freeze(buffer, 1) }
        for piece in pieces { evbuffer_add(buffer, piece, piece.utf8.count) }
        // A frozen front refuses to drain, even nothing; and to be copied out.
        let stillFrozen = evbuffer_drain(buffer, 0) != 0
        evbuffer_unfreeze(buffer, 1)
        let length = evbuffer_get_length(buffer)
        var bytes = [UInt8](repeating: 0, count: length)
        evbuffer_copyout(buffer, &bytes, length)
        return (String(decoding: bytes, as: UTF8.self), stillFrozen)
    }

    /// The same callback counts what the socket takes from the buffer, and a second one what it reads into the
    /// input: the idle sweep's evidence that a connection moves.
    @Test func theBytesThatMoveAreCounted() {
        let output = evbuffer_new()!
        let input = evbuffer_new()!
        let progress = UnsafeMutablePointer<understudy_progress>.allocate(capacity: 1)
        progress.initialize(to: understudy_progress(bytes_in: 0, bytes_out: 0))
        defer {
            evbuffer_free(output)
            evbuffer_free(input)
            progress.deallocate()
        }
        #expect(understudy_answer_refusals_as_json(output, progress) != nil)
        #expect(understudy_count_input(input, progress) != nil)
        evbuffer_add(output, "HTTP/1.1 200 OK\r\n", 17)
        #expect(progress.pointee.bytes_out == 0)
        evbuffer_drain(output, 10)
        evbuffer_drain(output, 7)
        #expect(progress.pointee.bytes_out == 17)
        evbuffer_add(input, "GET / HTTP/1.1\r\n", 16)
        evbuffer_drain(input, 16)
        #expect(progress.pointee.bytes_in == 16)
        #expect(progress.pointee.bytes_out == 17)
    }

    @Test func evhttpsPageBecomesJSONWithTheSameHeadLines() {
        let text = output(after: RefusalPagesTests.headLines + [RefusalPagesTests.page]).text
        #expect(text == "HTTP/1.1 413 Request Entity Too Large\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Connection: close\r\nDate: Tue, 01 Dec 2026 23:00:00 GMT\r\n"
            + "Content-Length: \(RefusalPagesTests.message.utf8.count)\r\n\r\n" + RefusalPagesTests.message)
    }

    /// After a first reply, a socket bufferevent keeps its output's front frozen between writes.
    @Test func aFrozenOutputIsRewrittenAndStaysFrozen() {
        let result = output(after: RefusalPagesTests.headLines + [RefusalPagesTests.page], frozen: true)
        #expect(result.text.hasSuffix("\r\n\r\n" + RefusalPagesTests.message))
        #expect(result.stillFrozen)
    }

    @Test func aContinueStillWaitingAheadOfThePageIsKept() {
        let text = output(after: ["HTTP/1.1 100 Continue\r\n\r\n"] + RefusalPagesTests.headLines + [RefusalPagesTests.page]).text
        #expect(text.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Request Entity Too Large\r\nContent-Type: application/json"))
        #expect(text.hasSuffix(RefusalPagesTests.message))
    }

    @Test(arguments: [
        (501, "Not Implemented", "Method not implemented"),
        (400, "Bad Request", "Bad request"),
        (417, "Expectation Failed", "Expectation failed"),
        (404, "Not Found", "Not Found"),
    ])
    func eachStatusGetsItsMessage(status: Int, reason: String, message: String) {
        let page = "<HTML><HEAD>\n<TITLE>\(status) \(reason)</TITLE>\n</HEAD><BODY>\n<H1>\(reason)</H1>\n</BODY></HTML>\n"
        let text = output(after: ["HTTP/1.1 \(status) \(reason)\r\n", "Content-Type: text/html\r\n", "Connection: close\r\n",
                                  "Content-Length: \(page.utf8.count)\r\n", "\r\n", page]).text
        #expect(text.hasPrefix("HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json; charset=utf-8\r\n"))
        #expect(text.contains("\r\n\r\n{\"message\":\"\(message)"))
    }

    /// Anything that is not exactly evhttp's page and head goes out as it came.
    @Test(arguments: [
        // Another page in the same shape, as a body of Understudy's own.
        ["HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: 120\r\n\r\n", "<HTML><HEAD>\n<TITLE>413 Request Entity Too Large</TITLE>\n</HEAD><BODY>\n"
            + "<H2>Request Entity Too Large</H2>\n</BODY></HTML>\n"],
        // The page after a head whose status is not the page's.
        ["HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: 120\r\n\r\n", page],
        // The page with no head before it.
        [page],
        // The page's text arriving in pieces.
        [head, String(page.prefix(60)), String(page.dropFirst(60))],
    ])
    func otherBytesAreLeftAlone(pieces: [String]) {
        #expect(output(after: pieces).text == pieces.joined())
    }
}
