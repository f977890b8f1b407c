import Foundation
import Testing
@testable import UnderstudyRecording

@Suite struct RecordingWriterTests {
    @Test func writesOneFilePerKeyWithSequencesAndAManifest() throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url, options: RecordingOptions(ignoredQueryParameters: ["_"]))
        writer.append(Exchanges.get("/products/1", body: #"{"id":1}"#))
        writer.append(Exchanges.get("/products/1", status: 503, body: #"{"message":"busy"}"#))
        writer.append(Exchanges.get("/products", query: [("limit", "5"), ("_", "123")]))
        writer.append(Exchanges.get("/products", query: [("_", "456"), ("limit", "5")], body: #"{"second":true}"#))
        writer.append(Exchanges.get("/Products/1"))
        writer.append(Exchanges.get("/products/1/"))
        writer.flush()
        #expect(writer.failures.isEmpty)

        let files = directory.files()
        #expect(files.count == 5, "\(files)")
        #expect(files.contains("understudy-recording.json"))
        #expect(files.contains("GET/products/1.json"))
        #expect(files.contains("GET/products/1/index.json"))
        // A name differing only in case is numbered: one directory serves macOS's case-insensitive disks too.
        #expect(files.contains("GET/Products/1-2.json") || files.contains("GET/products/1-2.json"), "\(files)")

        let recording = try Recording(contentsOf: directory.url)
        #expect(recording.options.ignoredQueryParameters == ["_"])
        let one = try #require(recording.entries.first { $0.file == "GET/products/1.json" })
        #expect(one.responses.map(\.status) == [200, 503])
        let list = try #require(recording.entries.first { $0.request.path == "/products" })
        #expect(list.responses.count == 2)
        #expect(directory.text(list.file).contains(#""second": true"#))
    }

    @Test func dropsTransportHeadersAndRedactsBeforeWriting() throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url)
        var exchange = Exchanges.post("/auth/login", body: #"{"username":"emilys","password":"hunter2-secret"}"#,
                                      response: #"{"accessToken":"tok-AAAA"}"#,
                                      responseHeaders: [.init("Set-Cookie", "accessToken=tok-AAAA; Path=/"), .init("Date", "today"),
                                                        .init("Content-Length", "24"), .init("X-Understudy-Fault-Applied", "delay=1")])
        exchange.request.headers += [.init("Host", "api.example.com"), .init("X-Understudy-Fault", "delay=1")]
        writer.append(exchange)
        writer.append(Exchanges.get("/auth/me", headers: [.init("Authorization", "Bearer tok-AAAA")]))
        writer.flush()
        let everything = directory.files().map(directory.text).joined()
        for secret in ["hunter2-secret", "tok-AAAA", "api.example.com", "today", "X-Understudy", "Content-Length"] {
            #expect(!everything.contains(secret), "\(secret) was written")
        }
        #expect(everything.contains(#""accessToken": "understudy-redacted-2""#))
        #expect(everything.contains(#"["Authorization", "Bearer understudy-redacted-2"]"#))
    }

    @Test func redactionCanBeTurnedOff() throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url, options: RecordingOptions(redacts: false))
        writer.append(Exchanges.get("/auth/me", headers: [.init("Authorization", "Bearer tok-AAAA")]))
        writer.flush()
        #expect(directory.files().map(directory.text).joined().contains("Bearer tok-AAAA"))
        #expect(try Recording(contentsOf: directory.url).options.redacts == false)
    }

    @Test func reopeningContinuesSequencesAndNumbering() async throws {
        let directory = TemporaryDirectory()
        let first = try RecordingWriter(directory: directory.url)
        first.append(Exchanges.get("/a", headers: [.init("Authorization", "Bearer one")]))
        first.flush()
        let second = try RecordingWriter(directory: directory.url)
        second.append(Exchanges.get("/a", status: 201, headers: [.init("Authorization", "Bearer two")]))
        await second.flushed()
        let entry = try #require(try Recording(contentsOf: directory.url).entries.first)
        #expect(entry.responses.map(\.status) == [200, 201])
        #expect(directory.text("GET/a.json").contains("understudy-redacted-1"))
        // The request is the first one's; a later answer joins its sequence and takes the next number only if it
        // brought a new secret into the file.
        #expect(Redactor.highestNumber(in: Array(directory.text("GET/a.json").utf8)) == 1)
    }

    @Test func capsASequence() throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url, maximumSequence: 3)
        for status in 200..<210 { writer.append(Exchanges.get("/poll", status: status)) }
        writer.flush()
        #expect(try Recording(contentsOf: directory.url).entries.first?.responses.map(\.status) == [200, 201, 202])
    }

    @Test func leavesNoTemporaryFileAndLoadingSkipsOnesAKillLeft() throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url)
        for index in 0..<50 { writer.append(Exchanges.get("/items/\(index % 7)", status: 200 + index)) }
        writer.flush()
        #expect(directory.files().allSatisfy { !$0.hasSuffix(".tmp") })
        // What a kill -9 mid-write leaves: a hidden, half-written temporary file next to the real one.
        try directory.write(#"{"request": {"meth"#, to: "GET/items/.3.json.4242-1.tmp")
        let recording = try Recording(contentsOf: directory.url)
        #expect(recording.entries.count == 7)
        #expect(recording.entries.reduce(0) { $0 + $1.responses.count } == 50)
    }

    @Test func aReaderLoadingWhileTheWriterWritesNeverSeesHalfAFile() async throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url)
        let body = String(repeating: "abcdefgh", count: 256)
        for index in 0..<120 { writer.append(Exchanges.get("/items/\(index % 10)", status: 200 + index, body: #"{"text":"\#(body)"}"#)) }
        // Every load while the writer still has work must succeed (a half-written file would throw); how many
        // loads happen depends on the machine's speed, not on a deadline (under AddressSanitizer on a busy machine
        // one load could outlast a 30 s one).
        while writer.pendingBytes > 0 {
            _ = try Recording(contentsOf: directory.url)
            await Task.yield()
        }
        await writer.flushed()
        let answers = try Recording(contentsOf: directory.url).entries.reduce(0) { $0 + $1.responses.count }
        #expect(answers == 120)
    }

    @Test func aFileEditedIntoInvalidJSONStopsLoadingWithItsPosition() throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url)
        writer.append(Exchanges.get("/products/1"))
        writer.flush()
        let path = "GET/products/1.json"
        try directory.write(directory.text(path).replacingOccurrences(of: #""status": 200,"#, with: #""status": 200,,"#), to: path)
        #expect(throws: RecordingError(file: directory.url.standardizedFileURL.appendingPathComponent(path).path, line: 10, column: 21,
                                       reason: "expected a string key, found ','")) {
            try Recording(contentsOf: directory.url)
        }
        #expect(throws: RecordingError.self) { try RecordingWriter(directory: directory.url) }
    }

    @Test func aMissingDirectoryIsAClearError() {
        let directory = TemporaryDirectory()
        #expect(throws: RecordingError(file: directory.url.standardizedFileURL.path, reason: "no recording directory here")) {
            try Recording(contentsOf: directory.url)
        }
    }

    @Test func appendsFromManyThreadsAtOnce() async throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<25 { writer.append(Exchanges.get("/t/\(task)", query: [("i", "\(index % 5)")])) }
                }
            }
        }
        await writer.flushed()
        let recording = try Recording(contentsOf: directory.url)
        #expect(recording.entries.count == 40)
        #expect(recording.entries.allSatisfy { $0.responses.count == 5 })
    }
}

extension RecordingWriterTests {
    /// Far more than the bound handed over at once: the writer says it is behind, drops nothing, and catches up.
    @Test func aBurstPastTheBoundIsBehindButNothingIsDropped() async throws {
        let directory = TemporaryDirectory()
        let writer = try RecordingWriter(directory: directory.url)
        let body = #"{"text":""# + String(repeating: "x", count: 256 << 10) + #""}"#
        let count = RecordingWriter.maximumPendingBytes / (256 << 10) * 2
        for index in 0..<count { writer.append(Exchanges.get("/items/\(index)", body: body)) }
        #expect(writer.isBehind, "\(writer.pendingBytes) bytes waiting")
        await writer.flushed()
        #expect(!writer.isBehind && writer.pendingBytes == 0)
        #expect(writer.failures.isEmpty)
        #expect(try Recording(contentsOf: directory.url).entries.count == count)
    }
}
