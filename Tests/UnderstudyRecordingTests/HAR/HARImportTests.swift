import Foundation
import Testing
@testable import UnderstudyRecording
import UnderstudyJSON

/// Each fixture HAR imported into a directory through the recording's writer, then replayed through its matcher:
/// every usable entry answers with its status and body, and no secret of the HAR reaches the directory.
@Suite struct HARImportTests {
    /// The secrets each fixture holds: its login's password and tokens, and its session cookie.
    static let secrets = [
        "chrome": ["chrome-pass-4417", "chrome-access-7f3a91", "chrome-refresh-2c1d55", "chrome-cookie-9931"],
        "pulse": ["pulse-access-91be07", "pulse-refresh-44d0aa", "pulse-cookie-5520"],
        "proxyman": ["proxyman-pass-8086", "proxyman-token-c0ffee", "proxyman-refresh-b16b00", "proxyman-cookie-7781",
                     "proxyman-token-2-feed01"],
    ]

    static func file(_ name: String) -> URL {
        HARArchiveTests.directory.appendingPathComponent("\(name).har")
    }

    @Test(arguments: ["chrome", "pulse", "proxyman"])
    func everyUsableEntryReplaysWithItsStatusAndBody(name: String) throws {
        let directory = TemporaryDirectory()
        let result = try HARImport.run(file: Self.file(name), into: directory.url)
        #expect(result.failures.isEmpty)
        #expect(!result.archive.exchanges.isEmpty)
        let matcher = ReplayMatcher(try Recording(contentsOf: directory.url))
        for exchange in result.archive.exchanges {
            guard case .hit(let response, let file) = matcher.answer(exchange.recorded.request) else {
                Issue.record("\(name) entry \(exchange.entryIndex) (\(exchange.summary)) did not replay")
                continue
            }
            #expect(response.status == exchange.recorded.response.status, "\(file)")
            expectSameBody(recorded: response.body, original: exchange.recorded.response.body, in: file)
        }
    }

    @Test(arguments: ["chrome", "pulse", "proxyman"])
    func noSecretOfTheHARReachesTheDirectory(name: String) throws {
        let har = String(decoding: try Data(contentsOf: Self.file(name)), as: UTF8.self)
        let secrets = try #require(Self.secrets[name])
        for secret in secrets { #expect(har.contains(secret), "the fixture holds \(secret)") }

        let directory = TemporaryDirectory()
        _ = try HARImport.run(file: Self.file(name), into: directory.url)
        #expect(directory.files().count > 1)
        for file in directory.files() {
            for secret in secrets { #expect(!directory.text(file).contains(secret), "\(file) holds \(secret)") }
        }
    }

    /// The check above can fail: with redaction off, the secrets are written as they were.
    @Test func withRedactionOffTheSecretsAreKept() throws {
        let directory = TemporaryDirectory()
        _ = try HARImport.run(file: Self.file("proxyman"), into: directory.url, options: RecordingOptions(redacts: false))
        let everything = directory.files().map(directory.text).joined()
        for secret in try #require(Self.secrets["proxyman"]) { #expect(everything.contains(secret), "\(secret)") }
    }

    @Test func anExtraRedactedFieldIsReplacedToo() throws {
        let directory = TemporaryDirectory()
        _ = try HARImport.run(file: Self.file("proxyman"), into: directory.url, options: RecordingOptions(redactedFields: ["email"]))
        #expect(!directory.files().map(directory.text).joined().contains("ada@example.org"))
    }

    @Test func aRepeatedRequestBecomesASequenceInFileOrder() throws {
        let directory = TemporaryDirectory()
        let result = try HARImport.run(file: Self.file("chrome"), into: directory.url)
        let stock = try #require(result.recording.entries.first { $0.request.path == "/api/products/1" })
        #expect(stock.responses.map { String(decoding: $0.body, as: UTF8.self).contains("\"stock\":5") } == [true, false])
    }

    @Test func answersPastTheSequenceBoundAreCountedNotLost() throws {
        let directory = TemporaryDirectory()
        let entry = #"{"request": {"method": "GET", "url": "https://x.test/poll"}, "response": {"status": 200, "content": {"mimeType": "text/plain", "text": "n"}}}"#
        try directory.write(HARArchiveTests.log(entry: Array(repeating: entry, count: 66).joined(separator: ",")), to: "poll.har")
        let result = try HARImport.run(file: directory.url.appendingPathComponent("poll.har"),
                                       into: directory.url.appendingPathComponent("recording"))
        #expect(result.recording.entries.map(\.responses.count) == [64])
        #expect(result.beyondSequence == 2 && result.maximumSequence == 64)
    }

    @Test func aFileThatIsNotJSONWritesNothingAndSaysWhere() throws {
        let directory = TemporaryDirectory()
        try directory.write("{\"log\": {\"entries\": [\n  {\"request\": }]}}", to: "trace.har")
        let file = directory.url.appendingPathComponent("trace.har")
        let recording = directory.url.appendingPathComponent("recording")
        let error = #expect(throws: HARImportError.self) { try HARImport.run(file: file, into: recording) }
        #expect(error?.description == "\(file.path):2:15: not JSON: unexpected '}', expected a value")
        #expect(!FileManager.default.fileExists(atPath: recording.path))
    }

    @Test func aDirectoryThatCannotBeMadeIsNamed() throws {
        let directory = TemporaryDirectory()
        try directory.write("not a directory", to: "blocker")
        let blocker = directory.url.appendingPathComponent("blocker")
        let error = #expect(throws: HARImportError.self) {
            try HARImport.run(file: Self.file("chrome"), into: blocker.appendingPathComponent("recording"))
        }
        #expect(error?.description.hasPrefix(blocker.path) == true, "\(String(describing: error))")
    }

    /// A recorded body is the original, but for placeholders where the original had a secret.
    private func expectSameBody(recorded: [UInt8], original: [UInt8], in file: String) {
        guard let recordedJSON = try? JSONParser.parse(recorded), let originalJSON = try? JSONParser.parse(original) else {
            #expect(recorded == original, "\(file)")
            return
        }
        #expect(sameButRedacted(recordedJSON, originalJSON), "\(file): \(String(decoding: recorded, as: UTF8.self))")
    }

    private func sameButRedacted(_ recorded: JSONValue, _ original: JSONValue) -> Bool {
        switch (recorded, original) {
        case (.object(let left), .object(let right)):
            return left.keys == right.keys && left.entries.indices.allSatisfy { sameButRedacted(left.entries[$0].value, right.entries[$0].value) }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy(sameButRedacted)
        case (.string(let text), .string) where text.hasPrefix("understudy-redacted-"):
            return true
        default:
            return recorded == original
        }
    }
}

extension HARImportTests {
    @Test func aDirectoryGivenAsTheFileIsNamedAsOne() throws {
        let directory = TemporaryDirectory()
        try directory.write("x", to: "beside.txt")
        let recording = directory.url.appendingPathComponent("recording")
        let error = #expect(throws: HARImportError.self) { try HARImport.run(file: directory.url, into: recording) }
        #expect(error?.description == "\(directory.url.path): cannot read it: it is a directory, not a HAR file")
        #expect(!FileManager.default.fileExists(atPath: recording.path))
    }

    /// A HAR with nothing to import leaves no directory behind (one that was there already stays).
    @Test func anImportThatWritesNothingLeavesNoDirectory() throws {
        let directory = TemporaryDirectory()
        let entry = #"{"request": {"method": "GET", "url": "wss://x.test/socket"}, "response": {"status": 101}}"#
        try directory.write(HARArchiveTests.log(entry: entry), to: "socket.har")
        let recording = directory.url.appendingPathComponent("recording")
        let result = try HARImport.run(file: directory.url.appendingPathComponent("socket.har"), into: recording)
        #expect(result.archive.exchanges.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: recording.path))
    }
}
