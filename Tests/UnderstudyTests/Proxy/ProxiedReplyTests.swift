import Testing
@testable import Understudy

/// A forwarded reply as a value: an exchange fed by hand stands for the upstream, a driver for the socket.
@Suite struct ProxiedReplyTests {
    let body = Array((0..<100).map { UInt8($0) })
    let url = "http://127.0.0.1:9"

    private func reply(to exchange: UpstreamExchange, _ plan: ProxyPlan = ProxyPlan(), own: HTTPHeaders = [:]) -> ProxiedReply {
        ProxiedReply(plan: plan, ownHeaders: own, isHeadRequest: false, upstreamURL: url) { exchange }
    }

    private func upstreamHead(_ status: Int = 200, length: Int?, type: String = "application/json",
                              extra: HTTPHeaders = [:]) -> UpstreamExchange.Head {
        var headers: HTTPHeaders = ["Content-Type": type, "Connection": "keep-alive, X-Hop", "X-Hop": "1",
                                    "Keep-Alive": "timeout=5", "Access-Control-Allow-Origin": "*"]
        if let length { headers.add("Content-Length", String(length)) } else { headers.add("Transfer-Encoding", "chunked") }
        for field in extra { headers.add(field.name, field.value) }
        return UpstreamExchange.Head(status: status, headers: headers, contentLength: length)
    }

    @Test func theUpstreamsReplyPassesThroughAsItArrives() {
        let exchange = UpstreamExchange(startedAt: 1_000)
        var delivery = reply(to: exchange, own: ["Access-Control-Allow-Origin": "http://app.test"])
        var driver = DeliveryDriver()
        driver.run(&delivery)
        #expect(driver.head == nil, "nothing goes out before the upstream's head")
        exchange.received(upstreamHead(201, length: body.count), at: 1_002)
        exchange.received(Array(body[..<40]))
        driver.run(&delivery)
        #expect(driver.replyHead?.status == 201)
        #expect(driver.head == .some(100))
        let headers = driver.replyHead?.headers
        #expect(headers?["Connection"] == nil && headers?["X-Hop"] == nil && headers?["Keep-Alive"] == nil,
                "hop-by-hop headers, and those Connection names, stay on the upstream's hop")
        #expect(headers?["Content-Length"] == nil, "the writer sets the length")
        #expect(headers?["Access-Control-Allow-Origin"] == "http://app.test", "the reply's own headers win")
        #expect(driver.body == Array(body[..<40]))
        #expect(driver.ending == nil)
        exchange.received(Array(body[40...]))
        exchange.finished()
        driver.run(&delivery)
        #expect(driver.body == body)
        #expect(driver.ending == .end)
        #expect(delivery.upstream == UpstreamOutcome(status: 201, milliseconds: 2, failure: nil))
    }

    @Test func aTruncationLeavesOutAtLeastTheLastByte() {
        for (count, sent) in [(30, 30), (100, 99), (1_000, 99)] {
            let exchange = UpstreamExchange(startedAt: 0)
            var delivery = reply(to: exchange, ProxyPlan(truncation: .bytes(count)))
            exchange.received(upstreamHead(length: body.count), at: 0)
            exchange.received(body)
            var driver = DeliveryDriver()
            driver.run(&delivery)
            #expect(driver.head == .some(100))
            #expect(driver.body == Array(body[..<sent]))
            #expect(driver.ending == .closeWhenFlushed(reset: false))
        }
    }

    @Test func aChunkedBodyOfUnknownLengthIsTruncatedByItsMissingEnd() {
        let exchange = UpstreamExchange(startedAt: 0)
        var delivery = reply(to: exchange, ProxyPlan(truncation: .bytes(500)))
        exchange.received(upstreamHead(length: nil), at: 0)
        exchange.received(body)
        exchange.finished()
        var driver = DeliveryDriver()
        driver.run(&delivery)
        #expect(driver.head == .some(nil))
        #expect(driver.body == body)
        #expect(driver.ending == .closeWhenFlushed(reset: false), "no last chunk: the client sees the body end early")
    }

    @Test func aPercentageOfAnUnknownLengthWaitsForTheWholeBody() {
        let exchange = UpstreamExchange(startedAt: 0)
        var delivery = reply(to: exchange, ProxyPlan(truncation: .percent(50)))
        exchange.received(upstreamHead(length: nil), at: 0)
        exchange.received(Array(body[..<60]))
        var driver = DeliveryDriver()
        driver.run(&delivery)
        #expect(driver.head == nil)
        exchange.received(Array(body[60...]))
        exchange.finished()
        driver.run(&delivery)
        #expect(driver.head == .some(100))
        #expect(driver.body == Array(body[..<50]))
    }

    @Test func pacingSpreadsTheBodyOverTime() {
        let exchange = UpstreamExchange(startedAt: 0)
        var delivery = reply(to: exchange, ProxyPlan(pacing: .chunks(count: 4, overMilliseconds: 400)))
        exchange.received(upstreamHead(length: body.count), at: 0)
        exchange.received(body)
        exchange.finished()
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(driver.writes.map(\.at) == [100, 200, 300, 400])
        #expect(driver.body == body)
        #expect(driver.ending == .end)
    }

    @Test func malformedBreaksAWhole2xxBody() {
        let json = Array(#"{"id":1,"price":9.5}"#.utf8)
        let exchange = UpstreamExchange(startedAt: 0)
        var delivery = reply(to: exchange, ProxyPlan(malformed: .syntax))
        exchange.received(upstreamHead(length: json.count, extra: ["ETag": "W/\"1\""]), at: 0)
        exchange.received(json)
        exchange.finished()
        var driver = DeliveryDriver()
        driver.run(&delivery)
        let broken = FaultedResponses.brokenSyntax(json)
        #expect(driver.body == broken)
        #expect(driver.head == .some(broken.count))
        #expect(driver.replyHead?.headers["ETag"] == nil, "the broken body is not the tagged one")
    }

    @Test func noReplyIsAJSON502Or504NamingTheUpstream() {
        for (failure, status, message) in [
            (UpstreamFailure(kind: .unreachable, detail: "could not connect to 127.0.0.1:9"), 502,
             #"{"message":"The upstream http://127.0.0.1:9 failed: could not connect to 127.0.0.1:9"}"#),
            (UpstreamFailure(kind: .timeout, detail: "no reply within 1 s"), 504,
             #"{"message":"The upstream http://127.0.0.1:9 did not answer in time: no reply within 1 s"}"#),
        ] {
            let exchange = UpstreamExchange(startedAt: 0)
            var delivery = reply(to: exchange)
            exchange.failed(failure, at: 5)
            var driver = DeliveryDriver()
            driver.run(&delivery)
            #expect(driver.replyHead?.status == status)
            #expect(driver.replyHead?.headers["Content-Type"] == HTTPResponse.jsonContentType)
            #expect(driver.text == message)
            #expect(delivery.upstream == UpstreamOutcome(status: 0, milliseconds: 5, failure: failure.detail))
        }
    }

    @Test func aClientThatFallsBehindPausesTheUpstream() {
        let exchange = UpstreamExchange(startedAt: 0)
        var paused: [Bool] = []
        exchange.pauseReading = { paused.append(true) }
        exchange.resumeReading = { paused.append(false) }
        var delivery = reply(to: exchange)
        exchange.received(upstreamHead(length: 1 << 20), at: 0)
        exchange.received(body)
        var driver = DeliveryDriver(startingAt: 0)
        driver.unflushedBytes = { $0 < 20 ? ProxiedReply.highWaterBytes + 1 : 0 }
        driver.run(&delivery, until: 50)
        #expect(paused == [true, false], "paused while the client is behind, read again once it drained")
        #expect(driver.body == body)
    }

    @Test func streamFaultsActOnAnUpstreamEventStream() {
        let events = Array("retry: 3000\n\nid: 1\ndata: {\"a\":1}\n\nid: 2\ndata: {\"a\":2}\n\nid: 3\ndata: {\"a\":3}\n\n".utf8)
        var plan = ProxyPlan(truncation: .bytes(5))
        plan.stream.dropAfter = 2
        plan.appliedToStream = "drop-after=2"
        plan.appliedToBody = "truncate=5"
        let exchange = UpstreamExchange(startedAt: 0)
        var delivery = reply(to: exchange, plan, own: [FaultHeaders.applied: "truncate=5; drop-after=2"])
        exchange.received(upstreamHead(length: nil, type: "text/event-stream"), at: 0)
        exchange.received(events)
        var driver = DeliveryDriver()
        driver.run(&delivery)
        #expect(driver.text == "retry: 3000\n\nid: 1\ndata: {\"a\":1}\n\nid: 2\ndata: {\"a\":2}\n\n",
                "the body faults do not act on a stream")
        #expect(driver.ending == .closeWhenFlushed(reset: false))
        #expect(driver.replyHead?.headers[FaultHeaders.applied] == "drop-after=2")
    }
}

extension ProxiedReplyTests {
    @Test func aNetworkProfilesRatePacesAnUpstreamEventStream() {
        // 10 events of 40 bytes at a session profile's 1,000 B/s: 50 bytes a 50 ms slot, as `/products/stream`.
        let events = Array(String(repeating: "data: 0123456789abcdef0123456789abcdef\n\n", count: 10).utf8)
        var plan = ProxyPlan()
        plan.stream.bytesPerSecond = 1_000
        let exchange = UpstreamExchange(startedAt: 0)
        var delivery = reply(to: exchange, plan)
        exchange.received(upstreamHead(length: nil, type: "text/event-stream"), at: 0)
        exchange.received(events)
        exchange.finished()
        var driver = DeliveryDriver(startingAt: 0)
        driver.run(&delivery)
        #expect(driver.body == events)
        #expect(driver.ending == .end)
        var sent = 0
        for write in driver.writes {
            sent += write.bytes.count
            #expect(sent <= 50 * Int(write.at / 50), "\(sent) bytes by \(write.at) ms beat the rate")
        }
        #expect(driver.writes.last?.at == 400)
    }
}

/// The events of a proxied stream, counted and faulted by number.
@Suite struct EventBytesTests {
    @Test func eventsAreCutAtBlankLinesInAnyLineEnding() {
        #expect(EventBytes.blockEnd(in: Array("id: 1\ndata: x\n\nid: 2".utf8)) == 15)
        #expect(EventBytes.blockEnd(in: Array("data: x\r\n\r\nmore".utf8)) == 11)
        #expect(EventBytes.blockEnd(in: Array("data: x\r\r".utf8)) == nil, "a CR may be followed by an LF yet")
        #expect(EventBytes.blockEnd(in: Array("data: x\n".utf8)) == nil)
    }

    @Test func aMalformedEventHasHalfItsDataAndAReplacementCharacter() {
        var faults = FaultSpec.StreamFaults()
        faults.malformedEvent = 1
        var events = EventBytes(faults: faults)
        events.receive(Array(": hi\n\ndata: abcdef\n\ndata: ok\n\n".utf8))
        #expect(String(decoding: events.nextPiece(now: 0).bytes, as: UTF8.self) == ": hi\n\ndata: abc\u{FFFD}\n\ndata: ok\n\n")
    }

    @Test func cutMidEventStallAndNewlines() {
        var cut = FaultSpec.StreamFaults()
        cut.cutMidEvent = 2
        var events = EventBytes(faults: cut)
        events.receive(Array("data: 1\n\ndata: 2222\n\ndata: 3\n\n".utf8))
        #expect(String(decoding: events.nextPiece(now: 0).bytes, as: UTF8.self) == "data: 1\n\ndata: 22")
        #expect(events.ending == .close(reset: false))

        var stall = FaultSpec.StreamFaults()
        stall.stallAfter = 1
        stall.newline = "crlf"
        stall.chunkSize = 4
        var stalled = EventBytes(faults: stall)
        stalled.receive(Array("data: 1\n\ndata: 2\n\n".utf8))
        #expect(stalled.nextPiece(now: 0).bytes == Array("data".utf8))
        #expect(stalled.nextPiece(now: 0).bytes == Array(": 1\r".utf8))
        #expect(stalled.nextPiece(now: 0).bytes == Array("\n\r\n".utf8))
        #expect(stalled.nextPiece(now: 0).bytes.isEmpty)
        #expect(stalled.ending == .stall)
    }
}

extension ProxiedReplyTests {
    /// While the recording's disk is behind, the request is not sent: it waits, looking again every 5 ms, and is
    /// sent once the disk catches up. Nothing is dropped.
    @Test func aRequestWaitsWhileTheRecordingIsBehind() {
        final class Gate { var behind = true; var sent = 0 }
        let gate = Gate()
        let exchange = UpstreamExchange(startedAt: 1_000)
        var delivery = ProxiedReply(plan: ProxyPlan(), ownHeaders: [:], isHeadRequest: false, upstreamURL: url,
                                    holdsBack: { gate.behind }) {
            gate.sent += 1
            return exchange
        }
        var driver = DeliveryDriver()
        driver.run(&delivery, until: 1_050)
        #expect(gate.sent == 0, "held back for 50 ms")
        #expect(driver.turns == 11, "a look every 5 ms")
        gate.behind = false
        driver.run(&delivery, until: 1_060)
        #expect(gate.sent == 1)
        exchange.received(upstreamHead(length: body.count), at: 1_060)
        exchange.received(body)
        exchange.finished()
        driver.run(&delivery)
        #expect(driver.body == body && driver.ending == .end)
    }
}
