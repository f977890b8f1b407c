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
        #expect(try FaultSpecParser.parse("offline=2s", allowOffline: true).offlineMilliseconds == 2_000)
        let stream = try FaultSpecParser.parse("drop-after=3; cut-mid-event=2; reset-after=4; stall-after=0; malformed-event=1; newline=CRLF; chunk=1").stream
        #expect(stream.dropAfter == 3 && stream.cutMidEvent == 2 && stream.resetAfter == 4 && stream.stallAfter == 0)
        #expect(stream.malformedEvent == 1 && stream.newline == "crlf" && stream.chunkSize == 1)
        #expect(try FaultSpecParser.parse("status=204").status == 204)
        #expect(try FaultSpecParser.parse("retry-after=Wed, 21 Oct 2026 07:28:00 GMT").retryAfter == "Wed, 21 Oct 2026 07:28:00 GMT")
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
        ("retry-after=soon", "retry-after=soon", 1, "whole seconds or an HTTP-date"),
        ("offline=1s", "offline=1s", 1, "only be set through the admin API"),
        ("malformed=xml", "malformed=xml", 1, "'syntax' or 'shape'"),
        ("rate=99999999999999999999B/s", "rate=99999999999999999999B/s", 1, "from 1 B/s to 1 GB/s"),
        ("retry-after=9223372036854775807", "retry-after=9223372036854775807", 1, "at most 31536000 seconds"),
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

    @Test func longSpecsAreRefused() {
        #expect(throws: FaultSpecError.self) { try FaultSpecParser.parse(String(repeating: "hang;", count: 300)) }
    }
}
