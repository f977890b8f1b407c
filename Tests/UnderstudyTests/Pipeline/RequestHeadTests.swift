import Testing
@testable import Understudy

/// What the transport reads of a head before evhttp reads the body: the fault and the session, nothing else.
@Suite struct RequestHeadTests {
    private func head(_ text: String) -> RequestHead? {
        Array(text.utf8).withUnsafeBytes { RequestHead($0) }
    }

    @Test func readsTheFaultHeaderAndTheSessionInAnyCase() {
        let read = head("POST /products/add HTTP/1.1\r\nhost: x\r\nx-understudy-FAULT:  uprate=16k \r\n"
                        + "X-Understudy-Session: s1\r\n\r\n")
        #expect(read?.fault == "uprate=16k")
        #expect(read?.session == "s1")
        let sized = head("POST / HTTP/1.1\r\nContent-Length: 12\r\nX-Understudy-Session: s\r\nX-Understudy-Token: t\r\n\r\n")
        #expect(sized?.bodyBytes == 12)
        #expect(sized?.token == "t")
    }

    @Test func theHeaderWinsOverTheQuery() {
        #expect(head("POST /p?_fault=uprate%3D1k HTTP/1.1\r\n\r\n")?.fault == "uprate=1k")
        #expect(head("POST /p?_fault=uprate=1k HTTP/1.1\r\nX-Understudy-Fault: uprate=2k\r\n\r\n")?.fault == "uprate=2k")
    }

    @Test func aQueryNamesItsFaultPercentEncodedToo() {
        #expect(head("POST /p?%5Ffault=uprate%3D1k HTTP/1.1\r\nHost: x\r\n\r\n")?.fault == "uprate=1k")
        #expect(head("POST /p?a=1&_fault=uprate%3D2k HTTP/1.1\r\n\r\n")?.fault == "uprate=2k")
        #expect(head("POST /p?fault=uprate%3D2k HTTP/1.1\r\n\r\n") == nil)
    }

    @Test func aValueKeepsItsColonsAndTheLastFieldWins() {
        let read = head("POST / HTTP/1.1\r\nX-Understudy-Fault: status=503\r\nX-UNDERSTUDY-FAULT: uprate=1k; message=a:b\r\n\r\n")
        #expect(read?.fault == "uprate=1k; message=a:b")
        // The last one sets no rate, so none is read; a blank one is as good as none.
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Fault: uprate=1k\r\nX-Understudy-Fault: status=503\r\n\r\n") == nil)
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Fault: uprate=1k\r\nX-Understudy-Fault:  \r\n\r\n")?.fault == "uprate=1k")
        // A name with anything around it is another field.
        #expect(head("POST / HTTP/1.1\r\n X-Understudy-Fault: uprate=1k\r\nX-Understudy-Faults: uprate=1k\r\n\r\n") == nil)
    }

    @Test func valuesLoseJavaScriptsWhitespaceUnicodeIncluded() {
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Session: \t s1 \u{0B}\r\n\r\n")?.session == "s1")
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Session: \u{A0} s\u{E9} \u{2028}\r\n\r\n")?.session == "s\u{E9}")
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Session: \u{3000}\r\n\r\n") == nil)
    }

    @Test func linesEndAtCRLFAndTheHeadAtItsBlankLine() {
        // A lone LF stays inside its line, as evhttp's CRLF lines were always read here.
        #expect(head("POST / HTTP/1.1\nX-Understudy-Fault: uprate=1k\r\n\r\n") == nil)
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Session: s\nX: y\r\n\r\n")?.session == "s\nX: y")
        #expect(head("POST / HTTP/1.1\r\n\r\nX-Understudy-Fault: uprate=1k\r\n\r\n") == nil)
    }

    /// Only `uprate` and `profile` set an upload rate: any other fault is the pipeline's to read, not the head's.
    @Test func aFaultThatSetsNoRateIsNotRead() {
        #expect(head("GET /products/1 HTTP/1.1\r\nX-Understudy-Fault: status=503\r\n\r\n") == nil)
        #expect(head("GET /p?_fault=status%3D503 HTTP/1.1\r\n\r\n") == nil)
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Fault: delay=1s; PROFILE=3g\r\n\r\n")?.fault == "delay=1s; PROFILE=3g")
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Fault: UpRate=2k\r\n\r\n")?.fault == "UpRate=2k")
        #expect(head("POST / HTTP/1.1\r\nX-Understudy-Fault: status=503\r\nX-Understudy-Session: s\r\n\r\n")?.fault == nil)
    }

    @Test func aHeadThatAsksForNothingIsNotRead() {
        #expect(head("POST /products/add HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\n") == nil)
        #expect(head("GET /understudy HTTP/1.1\r\n\r\n") == nil)
        #expect(head("GET / HTTP/1.1\r\nX-Understudy-Fault:\r\n\r\n") == nil)
        #expect(head("") == nil)
    }

    @Test func thePipelineTakesTheRateFromTheFaultOrTheSessionsProfile() throws {
        let pipeline = Pipeline.serving(UnderstudyServer.Configuration())
        func rate(_ text: String) -> Int? {
            Array(text.utf8).withUnsafeBytes { pipeline.uploadRate(forHead: $0)?.bytesPerSecond }
        }
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Fault: uprate=16k\r\n\r\n") == 16_000)
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Fault: profile=edge\r\n\r\n") == 25_000)
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Fault: uprate=0\r\n\r\n") == nil)
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Session: dsl\r\n\r\n") == nil)
        pipeline.faults.startSession("dsl", profile: .dsl)
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Session: dsl\r\n\r\n") == 32_000)
    }

    /// A server with an admin token honours a head's `uprate` only with the token, as it would the fault itself.
    @Test func anAdminTokenIsNeededForAnUploadRateAsForAnyFault() {
        var configuration = UnderstudyServer.Configuration()
        configuration.adminToken = "secret"
        let pipeline = Pipeline.serving(configuration)
        func rate(_ text: String) -> Int? {
            Array(text.utf8).withUnsafeBytes { pipeline.uploadRate(forHead: $0)?.bytesPerSecond }
        }
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Fault: uprate=1\r\n\r\n") == nil)
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Fault: uprate=1\r\nX-Understudy-Token: wrong\r\n\r\n") == nil)
        #expect(rate("POST / HTTP/1.1\r\nX-Understudy-Fault: uprate=1\r\nX-Understudy-Token: secret\r\n\r\n") == 1)
    }
}
