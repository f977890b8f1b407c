import UnderstudyJSON

/// What makes two requests the same for a recording: the method, the path, the query regardless of order (less the
/// ignored parameters) and the body in canonical form (JSON with sorted keys and no whitespace).
///
/// Secrets are masked with one marker before comparing, so a recorded placeholder matches whatever token or
/// password a replaying client sends, and the key (and the file name made from it) never depends on a secret.
struct RequestKey: Hashable, Sendable {
    let method: String
    let path: String
    /// The kept query parameters, sorted, as `name=value` joined by `&`.
    let query: String
    /// The canonical body.
    let body: [UInt8]

    /// The text every secret is masked with.
    static let mask = "understudy-redacted"

    init(_ request: RecordedExchange.Request, rules: KeyRules) {
        method = request.method
        path = request.path
        var items = request.query.filter { !rules.ignoredQueryParameters.contains($0.name) }
        if let rewriter = rules.secrets { items = rewriter.query(items) { _ in Self.mask } }
        query = items.map { QueryText.escape($0.name) + "=" + QueryText.escape($0.value) }.sorted().joined(separator: "&")
        body = Self.canonicalBody(request.body, contentType: request.headers.value(for: "Content-Type"), secrets: rules.secrets)
    }

    /// Whether the key carries more than method and path (its file name then gets a hash of the rest).
    var hasQueryOrBody: Bool { !query.isEmpty || !body.isEmpty }

    /// A short stable hash of the query and the body: FNV-1a, 32 bits as 8 hex digits. Only names files; two keys
    /// with one hash get distinct names all the same (``RecordingWriter`` numbers them).
    var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in query.utf8 + [0x0A] + body {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let hex = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    private static func canonicalBody(_ bytes: [UInt8], contentType: String?, secrets: SecretRewriter?) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        if BodyKind.mayBeJSON(bytes), let value = try? JSONParser.parse(bytes) {
            let masked = secrets.map { $0.json(value) { _ in mask } } ?? value
            return JSONWriter.encode(CanonicalJSON.sorted(masked))
        }
        return secrets?.body(bytes, contentType: contentType) { _ in mask } ?? bytes
    }
}

/// The rules a key is built by: from a recording's options.
struct KeyRules: Sendable {
    let ignoredQueryParameters: Set<String>
    /// The secret finder, or nil when the recording was made with redaction off (then secrets compare as sent).
    let secrets: SecretRewriter?

    init(options: RecordingOptions) {
        ignoredQueryParameters = Set(options.ignoredQueryParameters)
        secrets = options.redacts ? SecretRewriter(fields: options.redactedFieldSet) : nil
    }
}

/// JSON in canonical form: object keys sorted (by their UTF-8 bytes; repeated keys keep their order).
enum CanonicalJSON {
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(sorted))
        case .object(let object):
            let entries = object.entries.enumerated().sorted { lhs, rhs in
                lhs.element.key == rhs.element.key ? lhs.offset < rhs.offset
                    : lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
            }
            return .object(JSONObject(entries.map { JSONObject.Entry(key: $0.element.key, value: sorted($0.element.value)) }))
        default:
            return value
        }
    }
}
