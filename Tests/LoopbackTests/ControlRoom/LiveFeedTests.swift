import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// `GET /__understudy/events` over a raw socket: the state first, requests as they complete, resume from the
/// journal, rule and offline changes made from another thread, and a subscriber that stops reading dropped.
@Suite(.blocksThreads) struct LiveFeedTests {
    /// A subscriber reading the feed's raw bytes. Each event is written as one chunk, so its text is contiguous.
    /// `@unchecked Sendable`: one thread at a time reads it (a background reader hands it back through a group).
    final class Subscriber: @unchecked Sendable {
        let connection: RawHTTPConnection
        private var bytes: [UInt8] = []
        /// The head and the de-chunked body so far (the chunks' framing, with its CRLFs, taken out).
        private(set) var text = ""
        private(set) var ending: RawHTTPConnection.Ending?

        init(_ server: UnderstudyServer, query: String = "", headers: [String: String] = [:], close: Bool = false,
             receiveBufferBytes: Int? = nil) throws {
            connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 1, receiveBufferBytes: receiveBufferBytes)
            let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            connection.write("GET /__understudy/events\(query) HTTP/1.1\r\nHost: localhost\r\n"
                             + (close ? "Connection: close\r\n" : "") + "\(extra)\r\n")
        }

        /// Reads until `condition` holds on what arrived, or the connection ends, or `seconds` pass.
        @discardableResult
        func read(within seconds: Int = 10, until condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(Double(seconds))
            while !condition(text), Date() < deadline {
                let (read, ending) = connection.readUntilEnd()
                bytes += read
                text = Subscriber.dechunk(bytes)
                if ending != .timedOut {
                    self.ending = ending
                    break
                }
            }
            return condition(text)
        }

        /// The head, then the chunks' contents; a last chunk (the feed ended cleanly) shows as `<end>`.
        static func dechunk(_ bytes: [UInt8]) -> String {
            guard let headEnd = RawResponse.headEnd(in: bytes) else { return String(decoding: bytes, as: UTF8.self) }
            var out = Array(bytes[..<(headEnd + 4)])
            var index = headEnd + 4
            while index < bytes.count {
                guard let lineEnd = (index..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                      let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16) else { break }
                if size == 0 {
                    out += Array("<end>".utf8)
                    break
                }
                let start = lineEnd + 2
                out += bytes[start..<min(start + size, bytes.count)]
                index = start + size + 2
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// The events' type and data, in order.
        var events: [(type: String, data: String)] {
            text.components(separatedBy: "event: ").dropFirst().map { part in
                let lines = part.components(separatedBy: "\n")
                return (lines[0], lines.first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) } ?? "")
            }
        }

        /// The ids of request events, in order.
        var requestIDs: [Int] {
            text.components(separatedBy: "\n").compactMap { line in
                line.hasPrefix("id: ") ? Int(line.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            }
        }

    }

    @Test func stateFirstThenRequestsAsTheyComplete() async throws {
        try await withServer { server, client in
            let feed = try Subscriber(server)
            #expect(feed.read { $0.contains("event: state\n") })
            #expect(feed.text.contains("HTTP/1.1 200 OK"))
            #expect(feed.text.contains("Content-Type: text/event-stream; charset=utf-8"))
            #expect(feed.text.contains("retry: 2000\n\nevent: state\ndata: {\"rules\":[],\"offline\":{\"active\":false,\"secondsLeft\":0},\"seed\":1,\"sessions\":[]}\n\n"))
            _ = try await client.send("/products/1")
            _ = try await client.send("/ping", headers: ["X-Understudy-Session": "s1"])
            #expect(feed.read { $0.components(separatedBy: "event: request\n").count == 3 })
            #expect(feed.requestIDs == [1, 2])
            let requests = feed.events.filter { $0.type == "request" }.map(\.data)
            let first = try JSONDecoder().decode(Entry.self, from: Data(requests[0].utf8))
            let second = try JSONDecoder().decode(Entry.self, from: Data(requests[1].utf8))
            #expect(first.path == "/products/1" && first.status == 200 && first.session == nil)
            #expect(second.path == "/ping" && second.session == "s1")
        }
    }

    @Test func lastEventIDResumesFromTheJournal() async throws {
        try await withServer { server, client in
            for path in ["/products/1", "/products/2", "/ping", "/test"] { _ = try await client.send(path) }
            // The state, then the requests after id 2: three events, then the feed ends.
            let feed = try Subscriber(server, query: "?count=3", headers: ["Last-Event-ID": "2"], close: true)
            #expect(feed.read { _ in false } == false)
            #expect(feed.ending == .closed)
            #expect(feed.requestIDs == [3, 4])
            #expect(feed.text.hasSuffix("<end>"), "ends with the last chunk")
            let paths = try feed.events.filter { $0.type == "request" }.map { try JSONDecoder().decode(Entry.self, from: Data($0.data.utf8)).path }
            #expect(paths == ["/ping", "/test"])
        }
    }

    @Test func ruleAndOfflineChangesFromAnyThreadAppear() async throws {
        try await withServer { server, client in
            let feed = try Subscriber(server)
            #expect(feed.read { $0.contains("event: state\n") })
            try server.faults.add(FaultRule(match: .init(path: "/products/*"), fault: "status=503", times: 2))
            #expect(feed.read { $0.contains("event: rule-added\n") })
            #expect(try await client.send("/products/1").status == 503)
            #expect(feed.read { $0.contains("\"remaining\":1,") && $0.contains("event: rule-fired\n") })
            server.faults.remove(id: "rule-1")
            #expect(feed.read { $0.contains("event: rule-removed\ndata: {\"id\":\"rule-1\"}\n\n") })
            server.faults.reseed(9)
            #expect(feed.read { $0.contains("event: seed\ndata: {\"seed\":9}\n\n") })
            server.faults.startSession("demo", seed: 4)
            #expect(feed.read { $0.contains("event: sessions\ndata: {\"sessions\":[{\"id\":\"demo\",\"seed\":4}]}\n\n") })
            server.goOffline(for: .seconds(1))
            #expect(feed.read { $0.contains("event: offline\ndata: {\"active\":true,") })
            #expect(feed.read { $0.contains("event: offline\ndata: {\"active\":false,\"secondsLeft\":0}\n\n") })
        }
    }

    @Test func aSubscriberThatStopsReadingIsDropped() async throws {
        try await withServer({ $0.maximumStreamBacklogBytes = 64 << 10 }) { server, client in
            let slow = try Subscriber(server, receiveBufferBytes: 2_048)
            // The kernel holds what the reader that keeps up has not read yet (up to the system's cap, some 400 KiB),
            // so a reader thread starved by a loaded machine is not taken for a slow one.
            let fast = try Subscriber(server, receiveBufferBytes: 4 << 20)
            #expect(fast.read { $0.contains("event: state\n") })
            // The reader that keeps up reads on a thread of its own while the requests go out: a blocked global-queue
            // worker starved URLSession's sends under AddressSanitizer with the whole suite (4 requests in a minute).
            // The wait ends as soon as the last event is read; its deadline only bounds a failure.
            let reading = DispatchGroup()
            reading.enter()
            Thread {
                fast.read(within: 240) { $0.contains("id: 200\nevent: request\n") }
                reading.leave()
            }.start()
            // Each request event carries its 1 KiB header: some 250 KiB for a reader that takes none of it.
            let padding = String(repeating: "x", count: 1_024)
            for _ in 0..<200 { _ = try await client.send("/ping", headers: ["X-Padding": padding]) }
            await withCheckedContinuation { continuation in reading.notify(queue: .global()) { continuation.resume() } }
            // It has the newest request; the feed may have counted some it did not send (`skipped`).
            #expect(fast.text.contains("id: 200\nevent: request\n"))
            // The slow one gets what was queued before it was cut off, then the server's close.
            slow.read(within: 20) { _ in false }
            #expect(slow.ending == .closed)
            #expect(slow.requestIDs.count < 200)
            #expect(fast.ending == nil, "the reader that keeps up stays subscribed")
            #expect(try await client.send("/ping").status == 200)
        }
    }

    @Test func theFeedIsBehindTheTokenAndTheGate() async throws {
        try await withServer({ $0.adminToken = "t0ken" }) { server, client in
            #expect(try await client.send("/__understudy/events?count=1").status == 401)
            #expect(try await client.send("/__understudy/events?count=1", headers: ["Origin": "http://evil.test"]).status == 403)
            let reply = try await client.send("/__understudy/events?count=1", headers: ["X-Understudy-Token": "t0ken"])
            #expect(reply.status == 200)
            #expect(try await client.send("/__understudy/").status == 200, "the page asks for the token itself")
        }
    }

    struct Entry: Decodable {
        let id: Int
        let path: String
        let status: Int
        let session: String?
    }
}
