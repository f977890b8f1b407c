import Foundation
import UnderstudyJSON

/// Finds the secrets in the parts of an exchange (credential and cookie headers, token-like JSON fields at any
/// depth, form and query parameters of those names) and rewrites each through a function.
///
/// One walker serves both redaction, which numbers each secret (``Redactor``), and matching, which masks every
/// secret with one marker so that a recorded placeholder and whatever the replaying client sends compare equal.
struct SecretRewriter {
    /// Redacted field names, lower-cased.
    let fields: Set<String>
    /// The names a body is searched for before it is parsed: the fields, less those another one contains
    /// (`token` finds `accesstoken` and `id_token` too); nil when a name is not ASCII, whose case only a parse
    /// compares rightly.
    private let searched: [[UInt8]]?

    init(fields: Set<String>) {
        self.fields = fields
        searched = fields.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
            ? fields.filter { name in !fields.contains { $0 != name && name.contains($0) } }.sorted().map { Array($0.utf8) }
            : nil
    }

    /// Whether a JSON field or a query parameter of this name holds a secret.
    func isSecret(_ name: String) -> Bool {
        fields.contains(name.lowercased())
    }

    /// A header value with its secrets rewritten: credentials after the scheme, cookie values (names stay), and the
    /// whole value of an API-key header or of a header named like a redacted field.
    func header(_ header: RecordedExchange.Header, _ replace: (String) -> String) -> RecordedExchange.Header {
        let value: String
        switch header.name.lowercased() {
        case "authorization", "proxy-authorization":
            let trimmed = header.value.trimmingCharacters(in: .whitespaces)
            if let space = trimmed.firstIndex(of: " ") {
                let credentials = trimmed[space...].trimmingCharacters(in: .whitespaces)
                value = String(trimmed[..<space]) + " " + replace(credentials)
            } else {
                value = replace(trimmed)
            }
        case "cookie":
            value = header.value.split(separator: ";", omittingEmptySubsequences: false)
                .map { Self.cookiePair(String($0).trimmingCharacters(in: .whitespaces), replace) }
                .joined(separator: "; ")
        case "set-cookie":
            var parts = header.value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            if !parts.isEmpty { parts[0] = Self.cookiePair(parts[0].trimmingCharacters(in: .whitespaces), replace) }
            value = parts.joined(separator: ";")
        case "x-api-key", "api-key":
            value = replace(header.value)
        case let name where isSecret(name) && !header.value.isEmpty:
            value = replace(header.value)
        default:
            return header
        }
        return RecordedExchange.Header(header.name, value)
    }

    /// Query parameters with the values of secret names rewritten.
    func query(_ items: [RecordedExchange.QueryItem], _ replace: (String) -> String) -> [RecordedExchange.QueryItem] {
        items.map { isSecret($0.name) && !$0.value.isEmpty ? RecordedExchange.QueryItem($0.name, replace($0.value)) : $0 }
    }

    /// A JSON value with the value of every secret field, at any depth, rewritten (numbers and booleans too, as
    /// text: a numeric PIN is a secret as well).
    func json(_ value: JSONValue, _ replace: (String) -> String) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { json($0, replace) })
        case .object(let object):
            return .object(JSONObject(object.entries.map { entry in
                guard isSecret(entry.key) else { return JSONObject.Entry(key: entry.key, value: json(entry.value, replace)) }
                switch entry.value {
                case .string(let secret) where !secret.isEmpty: return JSONObject.Entry(key: entry.key, value: .string(replace(secret)))
                case .number(let number): return JSONObject.Entry(key: entry.key, value: .string(replace(number.text)))
                case .bool(let flag): return JSONObject.Entry(key: entry.key, value: .string(replace(String(flag))))
                default: return JSONObject.Entry(key: entry.key, value: json(entry.value, replace))
                }
            }))
        default:
            return value
        }
    }

    /// A body with its secrets rewritten: a JSON body's fields, or a form body's parameters; other bodies as they
    /// are. Returns nil when nothing in it can hold a secret, so callers keep the original bytes.
    func body(_ bytes: [UInt8], contentType: String?, _ replace: (String) -> String) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        let type = contentType?.lowercased() ?? ""
        if type.contains("x-www-form-urlencoded") {
            let text = String(decoding: bytes, as: UTF8.self)
            let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let name = String(pair[..<equals]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                guard isSecret(name), pair.index(after: equals) < pair.endIndex else { return String(pair) }
                return String(pair[...equals]) + replace(String(pair[pair.index(after: equals)...]))
            }
            return Array(pairs.joined(separator: "&").utf8)
        }
        guard BodyKind.mayBeJSON(bytes), mayName(bytes), let value = try? JSONParser.parse(bytes) else { return nil }
        return JSONWriter.encode(json(value, replace))
    }

    /// Whether `bytes` may hold a secret field's name: one of them, in any case, or a `\u` escape that could spell
    /// one. A body that names none is left as it is, unparsed: most replies (a 30 KB product list parsed to find
    /// nothing was a quarter of a recording proxy's writing time).
    func mayName(_ bytes: [UInt8]) -> Bool {
        guard let searched else { return true }
        var lowered = bytes
        var escapes = false
        lowered.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                let byte = buffer[index]
                if byte >= 0x41, byte <= 0x5A { buffer[index] = byte | 0x20 }
                if byte == 0x5C, index + 1 < buffer.count, buffer[index + 1] == 0x75 { escapes = true }
            }
        }
        if escapes { return true }
        return lowered.withUnsafeBufferPointer { haystack in
            searched.contains { needle in SecretRewriter.contains(needle, in: haystack) }
        }
    }

    /// Whether `needle` (not empty) occurs in `haystack`: candidates start where its first byte does.
    private static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    private static func cookiePair(_ pair: String, _ replace: (String) -> String) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return pair }
        let value = pair[pair.index(after: equals)...]
        guard !value.isEmpty else { return pair }
        return String(pair[...equals]) + replace(String(value))
    }
}
