import Testing
@testable import Understudy

@Suite struct FaultSpecParsingTests {
    @Test func parsesEveryDirective() throws {
        let spec = try FaultSpec(parsing: " delay=100ms..500ms ;status=503; retry-after=2; message=Down; rate=2kB/s ")
        #expect(spec.delay == 100...500)
        #expect(spec.status == 503)
        #expect(spec.retryAfter == "2")
        #expect(spec.message == "Down")
        #expect(spec.pacing == .bytesPerSecond(2_000))
        #expect(spec.text == "delay=100ms..500ms; status=503; retry-after=2; message=Down; rate=2kB/s")

        #expect(try FaultSpec(parsing: "delay=2s").delay == 2_000...2_000)
        #expect(try FaultSpec(parsing: "delay=250").delay == 250...250)
        #expect(try FaultSpec(parsing: "chunks=10/2s").pacing == .chunks(count: 10, overMilliseconds: 2_000))
        #expect(try FaultSpec(parsing: "rate=1KiB/s").pacing == .bytesPerSecond(1_024))
        #expect(try FaultSpec(parsing: "rate-limit=5/10s").rateLimit == .init(requests: 5, windowMilliseconds: 10_000))
        #expect(try FaultSpec(parsing: "expire-token").expireToken)
        #expect(try FaultSpec(parsing: "malformed").malformed == .syntax)
        #expect(try FaultSpec(parsing: "malformed=shape").malformed == .shape)
        #expect(try FaultSpec(parsing: "truncate=512").truncation == .bytes(512))
        #expect(try FaultSpec(parsing: "truncate=50%").truncation == .percent(50))
        #expect(try FaultSpec(parsing: "truncate-chunked").truncation == .chunked)
        #expect(try FaultSpec(parsing: "empty").connection == .empty)
        #expect(try FaultSpec(parsing: "reset").connection == .reset(afterHeaders: false))
        #expect(try FaultSpec(parsing: "reset=after-headers").connection == .reset(afterHeaders: true))
        #expect(try FaultSpec(parsing: "hang").connection == .hang)
        #expect(try FaultSpec(parsing: "garbage").connection == .garbage)
        let stream = try FaultSpec(parsing: "drop-after=3; cut-mid-event=2; reset-after=4; stall-after=0; malformed-event=1; newline=CRLF; chunk=1").stream
        #expect(stream.dropAfter == 3 && stream.cutMidEvent == 2 && stream.resetAfter == 4 && stream.stallAfter == 0)
        #expect(stream.malformedEvent == 1 && stream.newline == "crlf" && stream.chunkSize == 1)
        #expect(try FaultSpec(parsing: "status=204").status == 204)
        #expect(try FaultSpec(parsing: "status=429; retry-after=Wed, 21 Oct 2026 07:28:00 GMT").retryAfter
            == "Wed, 21 Oct 2026 07:28:00 GMT")
        #expect(try FaultSpec(parsing: "rate-limit=5/10s; message=Slow down").message == "Slow down")
        #expect(try FaultSpec(parsing: ";;").isEmpty)
    }

    @Test(arguments: [
        ("stauts=503", "stauts=503", 1, "unknown directive 'stauts'"),
        ("delay=1s; status=302", "status=302", 11, "status must be 204 or a code from 400 to 599"),
        ("delay=", "delay=", 1, "'delay' needs a value"),
        ("delay=5s..1s", "delay=5s..1s", 1, "low end is above its high end"),
        ("delay=2m", "delay=2m", 1, "longer than 60 s"),
        ("hang=1", "hang=1", 1, "takes no value"),
        ("truncate=150%", "truncate=150%", 1, "from 0 to 99"),
        ("truncate=-1", "truncate=-1", 1, "byte count or a percentage"),
        ("rate-limit=0/1s", "rate-limit=0/1s", 1, "REQUESTS/WINDOW"),
        ("chunks=0/1s", "chunks=0/1s", 1, "COUNT/DURATION"),
        ("newline=crcr", "newline=crcr", 1, "crlf, cr or lf"),
        ("drop-after=0", "drop-after=0", 1, "whole number from 1"),
        ("status=429; retry-after=soon", "retry-after=soon", 13, "whole seconds or an HTTP-date"),
        ("offline=1s", "offline=1s", 1, "POST /__understudy/offline"),
        ("malformed=xml", "malformed=xml", 1, "'syntax' or 'shape'"),
        ("rate=99999999999999999999B/s", "rate=99999999999999999999B/s", 1, "past the limit: a rate is at most 100m"),
        ("rate=0", "rate=0", 1, "below the slowest rate, 1 byte per second"),
        ("rate=-1k", "rate=-1k", 1, "'-1k' is negative"),
        ("rate=1g", "rate=1g", 1, "'1g' is past the limit: a rate is at most 100m (100 MB/s)"),
        ("rate=fast", "rate=fast", 1, "not a rate like 64k, 1m or 2kB/s"),
        ("uprate=0k", "uprate=0k", 1, "below the slowest rate"),
        ("jitter=2m", "jitter=2m", 1, "longer than 60 s"),
        ("stall=1s..100ms", "stall=1s..100ms", 1, "low end is above its high end"),
        ("profile=5g", "profile=5g", 1, "unknown profile '5g'; known: 3g, edge, lte, wifi, dsl, very-bad-network, 100-loss"),
        ("profile=", "profile=", 1, "'profile' needs a value, e.g. profile=3g"),
        ("status=503;retry-after=9223372036854775807", "retry-after=9223372036854775807", 12, "at most 31536000 seconds"),
        ("rate-limit=9223372036854775807/1s", "rate-limit=9223372036854775807/1s", 1, "at most 1000000 requests"),
    ])
    func errorsNameTheDirectiveAndPosition(spec: String, directive: String, position: Int, reason: String) {
        FaultSpecParsingTests.expectRefusal(spec, directive: directive, position: position, reason: reason)
    }

    @Test func conflictingDirectivesAreRefused() {
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: "reset; hang") }
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: "status=503; empty") }
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: "truncate=5; garbage") }
    }

    /// The second directive of a clash is the one named, at its own position, with the first it clashes with.
    @Test(arguments: [
        ("reset; hang", "hang", 8, "'reset' at position 1"),
        ("delay=1s; status=503; empty", "empty", 23, "'status=503' at position 11"),
        ("status=503; drop-after=2", "drop-after=2", 13, "status replaces the reply"),
        ("status=500; malformed", "malformed", 13, "status replaces the reply"),
        ("expire-token; status=401", "status=401", 15, "'expire-token' at position 1"),
        ("truncate=5; truncate-chunked", "truncate-chunked", 13, "decide how the body is sent"),
        ("rate=1kB/s; chunks=2/1s", "chunks=2/1s", 13, "decide how the body is sent"),
        ("malformed; chunk=1", "chunk=1", 12, "only to /products/stream"),
        ("profile=3g; rate=1k", "rate=1k", 13, "the profile sets the rates"),
        ("delay=1s; profile=edge", "profile=edge", 11, "the profile sets the rates, the latency and the pauses"),
        ("profile=3g; hang", "hang", 13, "each decides the whole reply"),
        ("stall=1s; truncate=5", "truncate=5", 11, "decide how the body is sent"),
        ("stall=1s; drop-after=2", "drop-after=2", 11, "only to /products/stream"),
        ("status=503; close=1011", "close=1011", 13, "status replaces the reply"),
        ("truncate=5; lag=1s", "lag=1s", 13, "only to WebSockets"),
        ("hang; close-after=1s", "close-after=1s", 7, "each decides the whole reply"),
    ])
    func clashesNameTheSecondDirectiveAndItsPosition(spec: String, directive: String, position: Int, reason: String) {
        FaultSpecParsingTests.expectRefusal(spec, directive: directive, position: position, reason: "cannot be combined")
        FaultSpecParsingTests.expectRefusal(spec, directive: directive, position: position, reason: reason)
    }

    /// The words of a few refusals in full, as the 400's body carries them.
    @Test func refusalsAreWordedExactly() {
        let unknown = "unknown directive 'x'; known: delay, jitter, rate, uprate, chunks, stall, profile, status, "
            + "message, retry-after, rate-limit, "
            + "expire-token, malformed, truncate, truncate-chunked, empty, reset, hang, garbage, drop-after, "
            + "cut-mid-event, reset-after, stall-after, malformed-event, newline, chunk, close, close-after, corrupt, "
            + "skip, duplicate, lag"
        #expect((try? FaultSpec(parsing: "x")) == nil)
        FaultSpecParsingTests.expectRefusal("x", directive: "x", position: 1, reason: unknown, exactly: true)
        FaultSpecParsingTests.expectRefusal("Delay = ", directive: "Delay =", position: 1,
                                            reason: "'delay' needs a value, e.g. delay=300ms or delay=100ms..500ms",
                                            exactly: true)
        FaultSpecParsingTests.expectRefusal(" reset;\thang", directive: "hang", position: 9,
                                            reason: "cannot be combined with 'reset' at position 2: each decides the whole reply",
                                            exactly: true)
        FaultSpecParsingTests.expectRefusal("chunk=0", directive: "chunk=0", position: 1,
                                            reason: "chunk needs a whole number from 1, not '0'", exactly: true)
    }

    static func expectRefusal(_ spec: String, directive: String, position: Int, reason: String, exactly: Bool = false,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try FaultSpec(parsing: spec)
            Issue.record("accepted \(spec)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.directive == directive, sourceLocation: sourceLocation)
            #expect(error.position == position, sourceLocation: sourceLocation)
            #expect(exactly ? error.reason == reason : error.reason.contains(reason), "\(error.reason)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Directives that would change nothing are refused rather than reported as applied.
    @Test(arguments: [
        ("status=500; status=503", "status=503", 13, "already given at position 1"),
        ("reset; reset=after-headers", "reset=after-headers", 8, "already given at position 1"),
        ("retry-after=2", "retry-after=2", 1, "needs status=CODE"),
        ("delay=1s; message=Down", "message=Down", 11, "needs status=CODE"),
        ("rate-limit=5/10s; retry-after=3", "retry-after=3", 19, "needs status=CODE"),
        ("status=204; message=Gone", "message=Gone", 13, "a 204 has no body"),
        ("status=204; retry-after=1", "retry-after=1", 13, "a 204 carries no Retry-After"),
        ("lag=1s; message=Bye", "message=Bye", 9, "or close=CODE"),
        ("close=1000; message=\(String(repeating: "é", count: 62))", "message=\(String(repeating: "é", count: 62))", 13,
         "at most 123 bytes"),
    ])
    func directivesThatChangeNothingAreRefused(spec: String, directive: String, position: Int, reason: String) {
        FaultSpecParsingTests.expectRefusal(spec, directive: directive, position: position, reason: reason)
    }

    @Test(arguments: ["nonsense GMT", "Thu, 21 Oct 2026 07:28:00 GMT", "Wed, 21 Oct 2026 07:28:00 UTC", "Wed, 1 Oct 2026 07:28:00 GMT",
                      "Wed, 31 Feb 2026 07:28:00 GMT", "Wed, 21 Oct 2026 25:28:00 GMT", "wed, 21 oct 2026 07:28:00 GMT",
                      "Wed, 21 Oct 2026 07:28:00 GMT+1", "1.5", "-1"])
    func retryAfterDatesMustBeIMFFixdates(value: String) {
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: "status=503; retry-after=\(value)") }
    }

    @Test func retryAfterDatesAreRead() throws {
        let spec = try FaultSpec(parsing: "status=429; retry-after=Wed, 21 Oct 2026 07:28:00 GMT")
        #expect(spec.retryAfterDate == 1_792_567_680)
        #expect(IMFFixdate.secondsSince1970("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(IMFFixdate.secondsSince1970("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        // Leap days: every fourth year, but not a century unless it divides by 400.
        #expect(IMFFixdate.secondsSince1970("Sat, 29 Feb 2020 00:00:00 GMT") == 1_582_934_400)
        #expect(IMFFixdate.secondsSince1970("Tue, 29 Feb 2000 00:00:00 GMT") == 951_782_400)
        #expect(IMFFixdate.secondsSince1970("Mon, 29 Feb 2100 00:00:00 GMT") == nil)
        #expect(IMFFixdate.secondsSince1970("Mon, 01 Mar 2100 00:00:00 GMT") == 4_107_542_400)
        #expect(IMFFixdate.secondsSince1970("Wed, 21 Oct 2026 24:00:00 GMT") == nil)
        #expect(IMFFixdate.secondsSince1970("Wed, 21 Oct 2026 07:28:60 GMT") == nil)
    }

    @Test func appliedTextLeavesOutSkippedDirectives() throws {
        let spec = try FaultSpec(parsing: "delay=10ms; drop-after=2")
        #expect(spec.text(skipping: ["drop-after"]) == "delay=10ms")
        #expect(spec.canApply(to: .body))
        #expect(try !FaultSpec(parsing: "drop-after=2; newline=crlf").canApply(to: .body))
        #expect(try !FaultSpec(parsing: "malformed; truncate=5").canApply(to: .eventStream))
        #expect(try FaultSpec(parsing: "malformed; truncate=5").canApply(to: .body))
    }

    /// A socket numbers its messages as a stream its events: the stream's directives act on both, `newline` only
    /// on a stream, and the socket's own only on a socket.
    @Test func socketDirectivesActOnSocketsOnly() throws {
        #expect(try FaultSpec(parsing: "drop-after=2; close=1011").canApply(to: .socket))
        #expect(try !FaultSpec(parsing: "newline=crlf").canApply(to: .socket))
        #expect(try !FaultSpec(parsing: "close=4000; lag=1s").canApply(to: .eventStream))
        #expect(try !FaultSpec(parsing: "skip=2; duplicate=3; corrupt=rsv").canApply(to: .body))
        #expect(FaultSpec.inapplicable(to: .socket).contains("newline"))
        #expect(!FaultSpec.inapplicable(to: .socket).contains("cut-mid-event"))
        #expect(FaultSpec.inapplicable(to: .eventStream).contains("close-after"))
    }

    @Test func longSpecsAreRefused() {
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: String(repeating: "hang;", count: 300)) }
    }
}
