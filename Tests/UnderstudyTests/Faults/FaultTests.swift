import Testing
@testable import Understudy
import UnderstudyFaultSpec

/// The typed fault spec against the grammar: every directive renders the header text, reads back as the same
/// value, and is what the server's reading of the one grammar normalises it to.
@Suite struct FaultTests {
    /// One spec per directive (message and retry-after with the status they need), with the text it renders.
    static let examples: [(Fault, String)] = [
        (.delay(.milliseconds(300)), "delay=300ms"),
        (.delay(.seconds(2)), "delay=2s"),
        (.delay(.milliseconds(100) ... .milliseconds(1_500)), "delay=100ms..1500ms"),
        (.rate(bytesPerSecond: 2_000), "rate=2kB/s"),
        (.rate(bytesPerSecond: 512), "rate=512B/s"),
        (.rate(bytesPerSecond: 3_000_000), "rate=3MB/s"),
        (.chunks(10, over: .seconds(2)), "chunks=10/2s"),
        (.jitter(.milliseconds(250)), "jitter=250ms"),
        (.delay(.seconds(1)) + .jitter(.seconds(2)), "delay=1s; jitter=2s"),
        (.uprate(bytesPerSecond: 16_000), "uprate=16kB/s"),
        (.stall(.milliseconds(500)), "stall=500ms"),
        (.rate(bytesPerSecond: 64_000) + .stall(.milliseconds(200) ... .seconds(2)), "rate=64kB/s; stall=200ms..2s"),
        (.profile(.threeG), "profile=3g"),
        (.profile(.veryBadNetwork), "profile=very-bad-network"),
        (.status(503) + .profile(.totalLoss), "status=503; profile=100-loss"),
        (.uprate(bytesPerSecond: 1) + .hang, "uprate=1B/s; hang"),
        (.status(503), "status=503"),
        (.status(204), "status=204"),
        (.status(500, message: "Database on fire"), "status=500; message=Database on fire"),
        (.status(503, retryAfter: .seconds(1)), "status=503; retry-after=1"),
        (.status(429, retryAfter: .httpDate("Wed, 21 Oct 2026 07:28:00 GMT")),
         "status=429; retry-after=Wed, 21 Oct 2026 07:28:00 GMT"),
        (.status(502) + .message("Bad; gateway") + .retryAfter(.seconds(30)), "status=502; message=Bad, gateway; retry-after=30"),
        (.rateLimit(5, per: .seconds(10)), "rate-limit=5/10s"),
        (.rateLimit(5, per: .seconds(10)) + .message("Slow down"), "rate-limit=5/10s; message=Slow down"),
        (.expireToken, "expire-token"),
        (.malformed, "malformed"),
        (.malformedShape, "malformed=shape"),
        (.truncate(bytes: 512), "truncate=512"),
        (.truncate(percent: 50), "truncate=50%"),
        (.truncateChunked, "truncate-chunked"),
        (.empty, "empty"),
        (.reset, "reset"),
        (.resetAfterHeaders, "reset=after-headers"),
        (.hang, "hang"),
        (.garbage, "garbage"),
        (.dropAfter(events: 3), "drop-after=3"),
        (.cutMidEvent(2), "cut-mid-event=2"),
        (.resetAfter(events: 2), "reset-after=2"),
        (.stallAfter(events: 0), "stall-after=0"),
        (.malformedEvent(2), "malformed-event=2"),
        (.newline(.crlf), "newline=crlf"),
        (.newline(.cr), "newline=cr"),
        (.chunk(bytes: 1), "chunk=1"),
        (.delay(.milliseconds(300)) + .status(503, retryAfter: .seconds(1)), "delay=300ms; status=503; retry-after=1"),
        (.dropAfter(events: 3) + .newline(.lf) + .chunk(bytes: 7) + .delay(.seconds(1)), "drop-after=3; newline=lf; chunk=7; delay=1s"),
        (.close(code: 1011), "close=1011"),
        (.close(code: 4000, reason: "bye; now") + .dropAfter(events: 3), "close=4000; message=bye, now; drop-after=3"),
        (.closeAfter(.seconds(5)), "close-after=5s"),
        (.corrupt(.utf8), "corrupt=utf8"),
        (.corrupt(.reservedBit) + .malformedEvent(2), "corrupt=rsv; malformed-event=2"),
        (.corrupt(.masked), "corrupt=mask"),
        (.skip(message: 2), "skip=2"),
        (.duplicate(message: 3), "duplicate=3"),
        (.lag(.milliseconds(300)), "lag=300ms"),
        (.lag(.milliseconds(100) ... .seconds(1)), "lag=100ms..1s"),
    ]

    @Test(arguments: 0..<examples.count)
    func rendersParsesBackAndMatchesTheServer(_ index: Int) throws {
        let (fault, text) = FaultTests.examples[index]
        #expect(fault.text == text)
        #expect(try Fault(parsing: text) == fault)
        let server = try FaultSpec(parsing: fault.text)
        #expect(server.text == fault.text)
        #expect(try Fault(parsing: server.text) == fault)
    }

    /// One typed directive of each name, with what it needs to go with; the switch is exhaustive, so a new
    /// directive cannot be left out.
    static func typed(_ name: Fault.Directive.Name) -> Fault {
        switch name {
        case .delay: .delay(.milliseconds(100) ... .milliseconds(1_500))
        case .rate: .rate(bytesPerSecond: 1_024)
        case .uprate: .uprate(bytesPerSecond: 100_000_000)
        case .jitter: .jitter(.seconds(60))
        case .stall: .stall(.milliseconds(1) ... .seconds(60))
        case .profile: .profile(.dsl)
        case .chunks: .chunks(3, over: .milliseconds(1_250))
        case .status: .status(429)
        case .message: .status(500) + .message("Down; for now")
        case .retryAfter: .status(503) + .retryAfter(.httpDate("Wed, 21 Oct 2026 07:28:00 GMT"))
        case .rateLimit: .rateLimit(1_000_000, per: .seconds(3_600))
        case .expireToken: .expireToken
        case .malformed: .malformedShape
        case .truncate: .truncate(percent: 0)
        case .truncateChunked: .truncateChunked
        case .empty: .empty
        case .reset: .resetAfterHeaders
        case .hang: .hang
        case .garbage: .garbage
        case .dropAfter: .dropAfter(events: 1_000_000)
        case .cutMidEvent: .cutMidEvent(1)
        case .resetAfter: .resetAfter(events: 2)
        case .stallAfter: .stallAfter(events: 0)
        case .malformedEvent: .malformedEvent(4)
        case .newline: .newline(.cr)
        case .chunk: .chunk(bytes: 1)
        case .close: .close(code: 3000, reason: "gone")
        case .closeAfter: .closeAfter(.milliseconds(1_500))
        case .corrupt: .corrupt(.masked)
        case .skip: .skip(message: 1)
        case .duplicate: .duplicate(message: 1_000_000)
        case .lag: .lag(.seconds(60))
        }
    }

    @Test(arguments: Fault.Directive.Name.allCases)
    func everyDirectiveTheTypedSpecRendersIsReadBackToTheSameText(name: Fault.Directive.Name) throws {
        let fault = FaultTests.typed(name)
        #expect(fault.names.contains(name.rawValue))
        let server = try FaultSpec(parsing: fault.text)
        #expect(server.text == fault.text)
        #expect(try Fault(parsing: fault.text) == fault)
        #expect(try Fault(parsing: server.text).text == fault.text)
    }

    @Test func everyDirectiveOfTheGrammarHasAnExample() {
        let covered = Set(FaultTests.examples.flatMap { $0.0.names })
        #expect(covered == Set(Fault.Directive.Name.allCases.map(\.rawValue)))
    }

    @Test func readsWhatTheServerReads() throws {
        #expect(try Fault(parsing: " STATUS = 503 ;; Retry-After=2 ") == .status(503, retryAfter: .seconds(2)))
        #expect(try Fault(parsing: "rate=2KB/s") == .rate(bytesPerSecond: 2_000))
        #expect(try Fault(parsing: "rate=1KiB/s") == .rate(bytesPerSecond: 1_024))
        #expect(try Fault(parsing: "rate=64k") == .rate(bytesPerSecond: 64_000))
        #expect(try Fault(parsing: "rate=1.5M") == .rate(bytesPerSecond: 1_500_000))
        #expect(try Fault(parsing: "uprate=512") == .uprate(bytesPerSecond: 512))
        #expect(try Fault(parsing: "profile=Wi-Fi") == .profile(.wifi))
        #expect(try Fault(parsing: "profile=Very Bad Network") == .profile(.veryBadNetwork))
        #expect(try Fault(parsing: "profile=100% Loss") == .profile(.totalLoss))
        #expect(try Fault(parsing: "delay=1.5s") == .delay(.milliseconds(1_500)))
        #expect(try Fault(parsing: "delay=250") == .delay(.milliseconds(250)))
        #expect(try Fault(parsing: "malformed=json") == .malformed)
        #expect(try Fault(parsing: "reset=before-headers") == .reset)
        #expect(try Fault(parsing: "") == .none)
        #expect(Fault.none.text.isEmpty)
    }

    /// A directive the server refuses on its own is refused by the typed reader in the same words.
    @Test(arguments: ["delay=1s; stauts=503", "offline", "delay=2s..1s", "hang=1", "status=302", "delay=2m",
                      "drop-after=1000001", "chunks=0/1s", "close=1005", "close=2000", "close-after=2h",
                      "corrupt=bits", "skip=0", "lag=61s", "status=503; retry-after=Wed, 21 Oct 2026 07:28:00 UTC"])
    func errorsAreTheServersOwn(spec: String) {
        let server = #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: spec) }
        let typed = #expect(throws: FaultSpecError.self) { try Fault(parsing: spec) }
        #expect(typed != nil && typed == server)
    }

    @Test func errorsNameTheDirectiveAndWhereItIs() {
        let typed = #expect(throws: FaultSpecError.self) { try Fault(parsing: "delay=1s; stauts=503") }
        #expect(typed?.directive == "stauts=503")
        #expect(typed?.position == 11)
    }

    /// How directives combine is the server's to check, when it uses the spec: the typed reader takes what `+`
    /// can build.
    @Test func combinationsAreLeftToTheServer() throws {
        #expect(try Fault(parsing: "status=503; empty") == .status(503) + .empty)
        #expect(try Fault(parsing: "message=Down") == .message("Down"))
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: "status=503; empty") }
    }

    @Test func composesInOrderAndSplitsBack() {
        let fault = Fault([.delay(.milliseconds(300)), .status(503)])
        #expect(fault == .delay(.milliseconds(300)) + .status(503))
        #expect(fault.components == [.delay(.milliseconds(300)), .status(503)])
        #expect(fault.names == ["delay", "status"])
        #expect("\(fault)" == "delay=300ms; status=503")
    }

    @Test func durationsAreWholeMilliseconds() {
        #expect(Fault.delay(.microseconds(1_400)).text == "delay=1ms")
        #expect(Fault.delay(.seconds(-1)).text == "delay=0ms")
    }

    @Test func theInProcessAPITakesTheTypedSpec() throws {
        let rule = FaultRule(match: .init(path: "/products/*"), fault: .status(503, retryAfter: .seconds(1)), times: 2)
        #expect(rule.fault == "status=503; retry-after=1")
        let server = try UnderstudyServer.start()
        defer { server.stop() }
        let added = try server.faults.add(.status(503) + .delay(.milliseconds(10)), match: .init(path: "/x"), times: 1)
        #expect(added.rule.fault == "status=503; delay=10ms")
        #expect(throws: FaultSpecError.self) { try server.faults.add(.status(503) + .empty) }
    }
}
