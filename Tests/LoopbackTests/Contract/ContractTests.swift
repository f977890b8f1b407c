import Foundation
import Testing
@testable import Understudy
import UnderstudyJSON
import UnderstudyTestSupport

/// Replays every golden case of `Sources/UnderstudyTesting/Resources/contracts/` against an in-process server over
/// a raw socket: status, the headers that matter (and those that must be absent), and the body: exact JSON (key
/// order included), exact text (a stream, de-chunked), keys, or values at JSON Pointers. Each case gets a fresh server configured as it
/// asks (`server`), so its `setup` requests start from nothing and leave nothing behind. Schemas are checked by the
/// Python replay in `make contract`, which has a JSON Schema validator.
@Suite(.blocksThreads) struct ContractTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/UnderstudyTesting/Resources/contracts")

    static let cases: [ContractCase] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().compactMap { file in
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path),
                  case .object(let object)? = try? JSONParser.parse(Array(data)) else { return nil }
            return ContractCase(name: String(file.dropLast(5)), document: object)
        }
    }()

    @Test func everyCaseFileParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ContractTests.directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == ContractTests.cases.count)
        #expect(files.count >= 250)
    }

    @Test(arguments: ContractTests.cases)
    func replay(_ testCase: ContractCase) async throws {
        let token = testCase.usesToken ? try await SuiteToken.shared.value() : nil
        try await withServer(testCase.configure) { server, _ in
            for (index, step) in testCase.setup.enumerated() {
                let reply = try ContractCase.exchange(step, port: server.port, token: token)
                let status = reply.status ?? 0
                let wanted = step["status"]?.intValue
                #expect(wanted.map { status == $0 } ?? (200..<300).contains(status), "setup \(index + 1): \(status)")
            }
            let request = try #require(testCase.request)
            let expected = try #require(testCase.expected)
            let reply = try ContractCase.exchange(request, port: server.port, token: token)
            ContractTests.check(reply, against: expected)
            // evhttp's own refusals (rewritten as JSON, RefusalPages.c) end their connection.
            if testCase.document["evhttpRefusal"] == .bool(true) { #expect(reply.values("Connection") == ["close"]) }
        }
    }

    static func check(_ reply: ContractReply, against expected: JSONObject) {
        #expect(reply.status == expected["status"]?.intValue)
        if case .object(let headers)? = expected["headers"] {
            for entry in headers.entries {
                let values = reply.values(entry.key)
                #expect(values.contains(entry.value.stringValue ?? ""), "\(entry.key): \(values)")
            }
        }
        if case .array(let absent)? = expected["headersAbsent"] {
            for name in absent.compactMap(\.stringValue) { #expect(reply.values(name).isEmpty, "\(name) is sent") }
        }
        if expected["bodyEmpty"] == .bool(true) { #expect(reply.body.isEmpty) }
        if let text = expected["bodyText"]?.stringValue {
            #expect(String(decoding: reply.body, as: UTF8.self) == text)
        }
        let parsed = try? JSONParser.parse(reply.body)
        let shown = String(decoding: reply.body.prefix(300), as: UTF8.self)
        if let body = expected["body"] { #expect(parsed == body, "body: \(shown)") }
        if case .array(let keys)? = expected["bodyKeys"] {
            guard case .object(let actual)? = parsed else {
                Issue.record("body is not an object: \(shown)")
                return
            }
            #expect(actual.keys == keys.compactMap(\.stringValue))
        }
        if case .object(let pointers)? = expected["bodyAt"] {
            for entry in pointers.entries {
                #expect(parsed?.at(pointer: entry.key) == entry.value, "\(entry.key) in \(shown)")
            }
        }
    }
}

/// One login for the whole suite, on a server of its own, so that a case's server journals only the case's own
/// requests (as in the Python replay, which logs in on its main server). Tokens verify on any server: they share
/// the default secret.
actor SuiteToken {
    static let shared = SuiteToken()
    private var token: String?

    func value() async throws -> String {
        if let token { return token }
        let fresh = try await withServer { _, client in try await client.accessToken() }
        token = fresh
        return fresh
    }
}
