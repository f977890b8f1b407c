import Testing
@testable import Understudy

@Suite struct FaultSpecParserTests {
    @Test func parsesEveryDirective() throws {
        let spec = try FaultSpecParser.parse(" delay=100ms..500ms ;status=503; retry-after=2; message=Down; rate=2kB/s ")
        #expect(spec.delay == 100...500)
        #expect(spec.status == 503)
        #expect(spec.retryAfter == "2")
        #expect(spec.message == "Down")
        #expect(spec.pacing == .bytesPerSecond(2_000))
        #expect(spec.text == "delay=100ms..500ms; status=503; retry-after=2; message=Down; rate=2kB/s")

        #expect(try FaultSpecParser.parse("delay=2s").delay == 2_000...2_000)
        #expect(try FaultSpecParser.parse("delay=250").delay == 250...250)
        #expect(try FaultSpecParser.parse("chunks=10/2s").pacing == .chunks(count: 10, overMilliseconds: 2_000))
        #expect(try FaultSpecParser.parse("rate=1KiB/s").pacing == .bytesPerSecond(1_024))
        #expect(try FaultSpecParser.parse("rate-limit=5/10s").rateLimit == .init(requests: 5, windowMilliseconds: 10_000))
        #expect(try FaultSpecParser.parse("expire-token").expireToken)
        #expect(try FaultSpecParser.parse("malformed").malformed == .syntax)
        #expect(try FaultSpecParser.parse("malformed=shape").malformed == .shape)
        #expect(try FaultSpecParser.parse("truncate=512").truncation == .bytes(512))
        #expect(try FaultSpecParser.parse("truncate=50%").truncation == .percent(50))
        #expect(try FaultSpecParser.parse("truncate-chunked").truncation == .chunked)
        #expect(try FaultSpecParser.parse("empty").connection == .empty)
        #expect(try FaultSpecParser.parse("reset").connection == .reset(afterHeaders: false))
        #expect(try FaultSpecParser.parse("reset=after-headers").connection == .reset(afterHeaders: true))
        #expect(try FaultSpecParser.parse("hang").connection == .hang)
        #expect(try FaultSpecParser.parse("garbage").connection == .garbage)
        let stream = try FaultSpecParser.parse("drop-after=3; cut-mid-event=2; reset-after=4; stall-after=0; malformed-event=1; newline=CRLF; chunk=1").stream
        #expect(stream.dropAfter == 3 && stream.cutMidEvent == 2 && stream.resetAfter == 4 && stream.stallAfter == 0)
        #expect(stream.malformedEvent == 1 && stream.newline == "crlf" && stream.chunkSize == 1)
        #expect(try FaultSpecParser.parse("status=204").status == 204)
        #expect(try FaultSpecParser.parse("status=429; retry-after=Wed, 21 Oct 2026 07:28:00 GMT").retryAfter
            == "Wed, 21 Oct 2026 07:28:00 GMT")
        #expect(try FaultSpecParser.parse("rate-limit=5/10s; message=Slow down").message == "Slow down")
        #expect(try FaultSpecParser.parse(";;").isEmpty)
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
        ("rate=99999999999999999999B/s", "rate=99999999999999999999B/s", 1, "from 1 B/s to 1 GB/s"),
        ("status=503;retry-after=9223372036854775807", "retry-after=9223372036854775807", 12, "at most 31536000 seconds"),
        ("rate-limit=9223372036854775807/1s", "rate-limit=9223372036854775807/1s", 1, "at most 1000000 requests"),
    ])
    func errorsNameTheDirectiveAndPosition(spec: String, directive: String, position: Int, reason: String) {
        do {
            _ = try FaultSpecParser.parse(spec)
            Issue.record("accepted \(spec)")
        } catch {
            #expect(error.directive == directive)
            #expect(error.position == position)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func conflictingDirectivesAreRefused() {
        #expect(throws: FaultSpecError.self) { try FaultSpecParser.parse("reset; hang") }
        #expect(throws: FaultSpecError.self) { try FaultSpecParser.parse("status=503; empty") }
        #expect(throws: FaultSpecError.self) { try FaultSpecParser.parse("truncate=5; garbage") }
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
    ])
    func clashesNameTheSecondDirectiveAndItsPosition(spec: String, directive: String, position: Int, reason: String) {
        do {
            _ = try FaultSpecParser.parse(spec)
            Issue.record("accepted \(spec)")
        } catch {
            #expect(error.directive == directive)
            #expect(error.position == position)
            #expect(error.reason.contains("cannot be combined"), "\(error.reason)")
            #expect(error.reason.contains(reason), "\(error.reason)")
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
    ])
    func directivesThatChangeNothingAreRefused(spec: String, directive: String, position: Int, reason: String) {
        do {
            _ = try FaultSpecParser.parse(spec)
            Issue.record("accepted \(spec)")
        } catch {
            #expect(error.directive == directive)
            #expect(error.position == position)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test(arguments: ["nonsense GMT", "Thu, 21 Oct 2026 07:28:00 GMT", "Wed, 21 Oct 2026 07:28:00 UTC", "Wed, 1 Oct 2026 07:28:00 GMT",
                      "Wed, 31 Feb 2026 07:28:00 GMT", "Wed, 21 Oct 2026 25:28:00 GMT", "wed, 21 oct 2026 07:28:00 GMT",
                      "Wed, 21 Oct 2026 07:28:00 GMT+1", "1.5", "-1"])
    func retryAfterDatesMustBeIMFFixdates(value: String) {
        #expect(throws: FaultSpecError.self) { try FaultSpecParser.parse("status=503; retry-after=\(value)") }
    }

    @Test func retryAfterDatesAreRead() throws {
        let spec = try FaultSpecParser.parse("status=429; retry-after=Wed, 21 Oct 2026 07:28:00 GMT")
        #expect(spec.retryAfterDate == 1_792_567_680)
        #expect(Timestamp.secondsSince1970(httpDate: "Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(Timestamp.secondsSince1970(httpDate: "Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    }

    @Test func appliedTextLeavesOutSkippedDirectives() throws {
        let spec = try FaultSpecParser.parse("delay=10ms; drop-after=2")
        #expect(spec.text(skipping: ["drop-after"]) == "delay=10ms")
        #expect(spec.canApply(toStream: false))
        #expect(try !FaultSpecParser.parse("drop-after=2; newline=crlf").canApply(toStream: false))
        #expect(try !FaultSpecParser.parse("malformed; truncate=5").canApply(toStream: true))
        #expect(try FaultSpecParser.parse("malformed; truncate=5").canApply(toStream: false))
    }

    @Test func longSpecsAreRefused() {
        #expect(throws: FaultSpecError.self) { try FaultSpecParser.parse(String(repeating: "hang;", count: 300)) }
    }
}
