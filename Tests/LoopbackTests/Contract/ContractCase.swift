import Foundation
import Testing
@testable import Understudy
import UnderstudyJSON

/// One golden case of `Sources/UnderstudyTesting/Resources/contracts/` (format: `fixtures/contracts/README.md`),
/// and how to put it on the wire and read the reply.
struct ContractCase: CustomTestStringConvertible, Sendable {
    let name: String
    let document: JSONObject
    var testDescription: String { name }

    var request: JSONObject? { document["request"].flatMap(ContractCase.object) }
    var expected: JSONObject? { document["response"].flatMap(ContractCase.object) }
    var setup: [JSONObject] {
        guard case .array(let steps)? = document["setup"] else { return [] }
        return steps.compactMap(ContractCase.object)
    }

    /// `server`: the configuration the case needs (every case gets a fresh server here, isolated or not).
    func configure(_ configuration: inout UnderstudyServer.Configuration) {
        guard case .object(let server)? = document["server"] else { return }
        if let token = server["adminToken"]?.stringValue { configuration.adminToken = token }
        if let host = server["host"]?.stringValue { configuration.host = host }
        if case .array(let names)? = server["allowHosts"] { configuration.allowedHosts = names.compactMap(\.stringValue) }
        if let fixtures = server["fixtures"]?.stringValue {
            // A path relative to the repository root; a folder that does not load leaves the built-in data, and the
            // case then fails on its own routes.
            let directory = SpecRoutes.root.appendingPathComponent(fixtures).path
            if let catalog = try? Catalog.load(directory: directory) { configuration.catalog = catalog }
        }
    }

    /// Whether `{{token:emilys}}` appears anywhere in the case's requests.
    var usesToken: Bool {
        String(decoding: JSONValue.object(document).jsonBytes, as: UTF8.self).contains("{{token:")
    }

    static func object(_ value: JSONValue) -> JSONObject? {
        if case .object(let object) = value { object } else { nil }
    }

    /// The request as bytes, with `{{token:emilys}}` filled in and `Connection: close` so the reply ends the read.
    static func rawRequest(_ request: JSONObject, token: String?) -> [UInt8] {
        let fill: (String) -> String = { text in token.map { text.replacingOccurrences(of: "{{token:emilys}}", with: $0) } ?? text }
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
            // A case's own Host (the foreign-Host cases) replaces the default one.
            if given.entries.contains(where: { $0.key.lowercased() == "host" }) { headers.removeFirst() }
            headers += given.entries.map { ($0.key, fill($0.value.stringValue ?? "")) }
        }
        var body: [UInt8] = []
        let hasType = headers.contains { $0.0.lowercased() == "content-type" }
        if let json = request["body"] {
            body = Array(fill(String(decoding: json.jsonBytes, as: UTF8.self)).utf8)
            if !hasType { headers.append(("Content-Type", "application/json")) }
        } else if let form = request["form"]?.stringValue {
            body = Array(fill(form).utf8)
            if !hasType { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        } else if let raw = request["rawBody"]?.stringValue {
            let repeats = request["rawBodyRepeat"]?.intValue ?? 1
            body = Array([[UInt8]](repeating: Array(raw.utf8), count: repeats).joined())
        }
        if !body.isEmpty { headers.append(("Content-Length", String(body.count))) }
        let method = request["method"]?.stringValue ?? "GET"
        let head = "\(method) \(target) HTTP/1.1\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        return Array(head.utf8) + body
    }

    /// Sends one request on a connection of its own and reads the reply to the end (a chunked body de-chunked).
    static func exchange(_ request: JSONObject, port: Int, token: String?) throws -> ContractReply {
        let connection = try RawHTTPConnection(port: port, receiveTimeoutSeconds: 10)
        connection.write(rawRequest(request, token: token))
        let (bytes, _) = connection.readUntilEnd()
        guard let headEnd = RawResponse.headEnd(in: bytes) else { throw ContractReply.NoReply() }
        let reply = ContractReply(head: String(decoding: bytes[..<headEnd], as: UTF8.self), body: Array(bytes[(headEnd + 4)...]))
        guard reply.values("Transfer-Encoding").contains(where: { $0.lowercased() == "chunked" }) else { return reply }
        return ContractReply(head: reply.head, body: dechunked(reply.body))
    }

    /// The payload of a chunked body: each `<hex size>\r\n<bytes>\r\n` until the zero-size chunk.
    static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) {
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0,
                  lineEnd + 2 + size <= bytes.count else { break }
            out += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
        return out
    }
}

/// A reply as read off the socket.
struct ContractReply {
    struct NoReply: Error {}

    let head: String
    let body: [UInt8]

    var status: Int? { RawResponse(head: head, body: []).status }

    /// Every value of the header `name` (case-insensitive), in order.
    func values(_ name: String) -> [String] {
        head.split(separator: "\r\n").dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
}

extension JSONValue {
    /// The value at a JSON Pointer (RFC 6901): `/requests/0/path`.
    func at(pointer: String) -> JSONValue? {
        var value: JSONValue? = self
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch value {
            case .array(let items)?: value = Int(key).flatMap { items.indices.contains($0) ? items[$0] : nil }
            case .object(let object)?: value = object[key]
            default: return nil
            }
        }
        return value
    }
}
