import Foundation
import Testing
@testable import Understudy

/// Replays every golden case of `fixtures/contracts/` against an in-process server over a raw socket: status,
/// the headers that matter, and the exact body (key order included). Schemas are checked by the Python replay
/// in `make contract`, which has a JSON Schema validator.
@Suite struct ContractTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let document: JSONObject
        var testDescription: String { name }
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/contracts")

    static let cases: [Case] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().compactMap { file in
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path),
                  case .object(let object)? = try? JSONParser.parse(Array(data)) else { return nil }
            return Case(name: String(file.dropLast(5)), document: object)
        }
    }()

    @Test func everyCaseFileParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ContractTests.directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == ContractTests.cases.count)
        #expect(files.count >= 100)
    }

    @Test(arguments: ContractTests.cases)
    func replay(_ testCase: Case) async throws {
        try await withServer { server, client in
            let request = try #require(testCase.document["request"].flatMap(ContractTests.object))
            let expected = try #require(testCase.document["response"].flatMap(ContractTests.object))
            let token = try await client.accessToken()
            let raw = try ContractTests.rawRequest(request, token: token)
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 10)
            connection.write(raw)
            let (bytes, _) = connection.readUntilEnd()
            let headEnd = try #require(RawResponse.headEnd(in: bytes), "no reply")
            let response = RawResponse(head: String(decoding: bytes[..<headEnd], as: UTF8.self), body: Array(bytes[(headEnd + 4)...]))

            #expect(response.status == expected["status"]?.intValue)
            if case .object(let headers)? = expected["headers"] {
                for entry in headers.entries {
                    let values = response.head.split(separator: "\r\n").dropFirst().compactMap { line -> String? in
                        guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == entry.key.lowercased() else { return nil }
                        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                    #expect(values.contains(entry.value.stringValue ?? ""), "\(entry.key): \(values)")
                }
            }
            if expected["bodyEmpty"] == .bool(true) { #expect(response.body.isEmpty) }
            if let body = expected["body"] {
                #expect((try? JSONParser.parse(response.body)) == body, "body: \(String(decoding: response.body.prefix(300), as: UTF8.self))")
            }
            if case .array(let keys)? = expected["bodyKeys"], case .object(let actual)? = try? JSONParser.parse(response.body) {
                #expect(actual.keys == keys.compactMap(\.stringValue))
            }
        }
    }

    static func object(_ value: JSONValue) -> JSONObject? {
        if case .object(let object) = value { object } else { nil }
    }

    /// The request as bytes, with `{{token:emilys}}` filled in and `Connection: close` so the reply ends the read.
    static func rawRequest(_ request: JSONObject, token: String) throws -> String {
        let fill: (String) -> String = { $0.replacingOccurrences(of: "{{token:emilys}}", with: token) }
        var target = request["path"]?.stringValue ?? "/"
        if case .object(let query)? = request["query"] {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            let encode: (String) -> String = { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
            var pairs: [String] = []
            for entry in query.entries {
                let values: [JSONValue] = if case .array(let items) = entry.value { items } else { [entry.value] }
                for value in values { pairs.append(encode(entry.key) + "=" + encode(fill(value.stringValue ?? ""))) }
            }
            target += "?" + pairs.joined(separator: "&")
        }
        var headers: [(String, String)] = [("Host", "localhost"), ("Connection", "close")]
        if case .object(let given)? = request["headers"] {
            headers += given.entries.map { ($0.key, fill($0.value.stringValue ?? "")) }
        }
        var body = ""
        let hasType = headers.contains { $0.0.lowercased() == "content-type" }
        if let json = request["body"] {
            body = fill(String(decoding: json.jsonBytes, as: UTF8.self))
            if !hasType { headers.append(("Content-Type", "application/json")) }
        } else if let form = request["form"]?.stringValue {
            body = fill(form)
            if !hasType { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        } else if let raw = request["rawBody"]?.stringValue {
            body = raw
        }
        if !body.isEmpty { headers.append(("Content-Length", String(body.utf8.count))) }
        let method = request["method"]?.stringValue ?? "GET"
        return "\(method) \(target) HTTP/1.1\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n" + body
    }
}
