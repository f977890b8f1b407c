import UnderstudyJSON

/// Turns one `log.entries` item into an exchange, or says why it cannot be replayed.
///
/// Every field a replay does not need is ignored: timings (absent, -1, or Pulse's seconds), sizes, `cache`,
/// `pageref`, `comment`, `cookies` (their values are the `Cookie` and `Set-Cookie` headers again, which redaction
/// replaces; the arrays themselves are never copied) and `_`-prefixed fields, except `_resourceType` and `_error`,
/// which say an entry is not a replayable exchange, and `_webSocketMessages`, a WebSocket's conversation.
struct HAREntryReader {
    /// Why an entry was left out.
    struct Skip: Error, Equatable {
        var reason: String
    }

    let exporter: HARExporter
    /// What the caller chose (`--headers-only`).
    var options = HARReadOptions()
    /// `GET https://host/path?query` of every entry the file answers with a 2xx: a 304 for one of these is a
    /// revalidation of that reply; for any other, its cached body is the only copy the file holds.
    var answered: Set<String> = []

    /// `content.text` is the decompressed body, so `Content-Encoding: gzip` would lie about it. (The recording's
    /// writer drops the rest of the wire's framing, `Content-Length` among it, for every exchange.)
    private static let wireEncoding: Set<String> = ["content-encoding"]

    func read(_ entry: JSONValue, index: Int) -> Result<HARExchange, Skip> {
        do {
            return .success(try exchange(entry, index: index))
        } catch {
            return .failure(error)
        }
    }

    /// `GET https://…` for a message, or `entry N` when the entry has no method and URL to show.
    static func describe(_ entry: JSONValue, index: Int) -> String {
        guard let method = entry["request"]?["method"]?.stringValue, let url = entry["request"]?["url"]?.stringValue else {
            return "entry \(index)"
        }
        return "\(method.uppercased()) \(url)"
    }

    private func exchange(_ entry: JSONValue, index: Int) throws(Skip) -> HARExchange {
        guard case .object = entry else { throw Skip(reason: "expected an entry object, found \(entry.typeName)") }
        guard let request = entry["request"], case .object = request else { throw Skip(reason: "it has no request") }
        guard let method = request["method"]?.stringValue?.uppercased(), !method.isEmpty else {
            throw Skip(reason: "its request has no method")
        }
        guard let urlText = request["url"]?.stringValue, !urlText.isEmpty else { throw Skip(reason: "its request has no URL") }
        if method == "CONNECT" {
            throw Skip(reason: "a CONNECT tunnel: the proxy did not decrypt this host, so there is no request inside to replay")
        }
        guard let url = HARURL(urlText) else { throw Skip(reason: "'\(urlText)' is not an absolute URL") }
        if HAREntryReader.isWebSocket(entry, url: url) {
            return try socket(entry, index: index, request: request, url: url)
        }
        guard url.scheme == "http" || url.scheme == "https" else {
            throw Skip(reason: "not an HTTP URL (\(url.scheme):), so no server was asked")
        }
        guard let response = entry["response"], case .object = response else {
            throw Skip(reason: "it has no response (the request failed or was still running when the file was saved)")
        }
        var status = response["status"]?.intValue ?? 0
        guard status != 0 else {
            let error = response["_error"]?.stringValue ?? entry["_error"]?.stringValue
            throw Skip(reason: "it got no response (status 0\(error.map { ": \($0)" } ?? ""))")
        }
        guard (100...599).contains(status) else { throw Skip(reason: "status \(status) is not an HTTP status") }
        if status == 101 { throw Skip(reason: "a protocol switch (101): what follows is not HTTP") }
        var notes: [String] = []
        // A browser's revalidation of what it had cached: a replay answers If-None-Match itself, from the ETag of
        // the recorded 200, and a 304 to a client that sent none would hand it an empty body. When the file has
        // no 200 for the request, the body the browser had cached (Chrome and Firefox write it into the 304) is
        // that 200.
        if status == 304 {
            let cached = response["content"]?["text"]?.stringValue ?? ""
            if answered.contains(HAREntryReader.key(method: method, url: urlText)) || cached.isEmpty {
                throw Skip(reason: "a 304 revalidating the browser's cache: the replay answers If-None-Match itself")
            }
            status = 200
            notes.append("a 304 carrying the body the browser had cached, with no 200 for it in the file: imported "
                         + "as the 200 it revalidated")
        }

        var requestHeaders = headers(request["headers"], dropping: [])
        let requestBody = try body(of: request, method: method, headers: &requestHeaders, notes: &notes)
        var responseHeaders = headers(response["headers"], dropping: HAREntryReader.wireEncoding)
        let responseBody = try body(of: response, method: method, status: status, headers: &responseHeaders,
                                    notes: &notes)
        if (300..<400).contains(status), responseHeaders.value(for: "Location") == nil,
           let target = response["redirectURL"]?.stringValue, !target.isEmpty {
            responseHeaders.append(.init("Location", target))
        }
        var query = url.query.map { RecordedExchange.QueryItem.parse(Substring($0)) } ?? []
        if url.query == nil, let parameters = pairs(request["queryString"]), !parameters.isEmpty {
            query = parameters.map { .init($0.name, $0.value) }
            notes.append("the URL has no query, so it was taken from queryString")
        }
        let recorded = RecordedExchange(
            request: .init(method: method, path: url.path, query: query, headers: requestHeaders, body: requestBody),
            response: .init(status: status, headers: responseHeaders, body: responseBody))
        return HARExchange(entryIndex: index, recorded: recorded, origin: url.origin, milliseconds: milliseconds(entry),
                           notes: notes)
    }

    /// The request body: `postData.text` (base64 when `postData.encoding` says so), else the form rebuilt from
    /// `postData.params`; none, with a note, when the exporter kept none.
    private func body(of request: JSONValue, method: String, headers: inout [RecordedExchange.Header],
                      notes: inout [String]) throws(Skip) -> [UInt8] {
        guard let postData = request["postData"], case .object = postData else {
            let size = request["bodySize"]?.intValue ?? -1
            if size > 0 {
                notes.append("the exporter kept no request body (bodySize \(size)); imported without one")
            } else if exporter.kind == .pulse, ["POST", "PUT", "PATCH"].contains(method) {
                notes.append("Pulse's HAR export leaves out request bodies; imported without one")
            }
            return []
        }
        let mimeType = postData["mimeType"]?.stringValue ?? ""
        if !mimeType.isEmpty, headers.value(for: "Content-Type") == nil { headers.append(.init("Content-Type", mimeType)) }
        if let text = postData["text"]?.stringValue, !text.isEmpty {
            return try decoded(text, encoding: postData["encoding"]?.stringValue, mimeType: mimeType, what: "request body")
        }
        guard let parameters = pairs(postData["params"]), !parameters.isEmpty else { return [] }
        let type = mimeType.lowercased()
        guard type.isEmpty || type.hasPrefix("application/x-www-form-urlencoded") else {
            throw Skip(reason: "its request body (\(mimeType)) is given only as params, from which the body cannot be rebuilt")
        }
        notes.append("the request body was rebuilt from postData.params")
        return HARBody.formBody(parameters)
    }

    /// The reply body: `content.text` decoded. A reply that has no body by definition (HEAD, 1xx, 204) is
    /// empty whatever `content` says; otherwise a body the exporter did not keep (`HAREntryReader.omission`) is
    /// skipped, or imported empty with a note under `--headers-only`, never replayed as a silent empty body.
    private func body(of response: JSONValue, method: String, status: Int, headers: inout [RecordedExchange.Header],
                      notes: inout [String]) throws(Skip) -> [UInt8] {
        if method == "HEAD" || status < 200 || status == 204 { return [] }
        let content = response["content"]
        let mimeType = content?["mimeType"]?.stringValue ?? ""
        if !mimeType.isEmpty, mimeType != "x-unknown", headers.value(for: "Content-Type") == nil {
            headers.append(.init("Content-Type", mimeType))
        }
        if let omission = HAREntryReader.omission(response, status: status) {
            guard options.keepsEntriesWithoutBodies else {
                throw Skip(reason: omission + "; save the HAR with content, or import it with --headers-only")
            }
            notes.append(omission + ": imported with an empty body (--headers-only)")
            return []
        }
        guard let text = content?["text"]?.stringValue else { return [] }
        return try decoded(text, encoding: content?["encoding"]?.stringValue, mimeType: mimeType, what: "response body")
    }

    /// Text as bytes: base64-decoded when `encoding` says so, UTF-8 otherwise (HAR text is already decoded from
    /// its charset). Pulse's empty `encoding` means none.
    private func decoded(_ text: String, encoding: String?, mimeType: String, what: String) throws(Skip) -> [UInt8] {
        switch encoding?.lowercased() ?? "" {
        case "":
            if text.unicodeScalars.contains("\u{FFFD}"), !HARBody.isTextual(mimeType) {
                throw Skip(reason: "its \(what) (\(mimeType)) was exported as text with U+FFFD replacement characters: "
                               + "the original bytes are lost")
            }
            return Array(text.utf8)
        case "base64":
            switch HARBody.base64(text) {
            case .success(let bytes): return bytes
            case .failure(let error):
                throw Skip(reason: "its \(what) is marked base64 but is not: \(error.problem) at character \(error.position)")
            }
        case let other:
            throw Skip(reason: "its \(what) has encoding '\(other)', which is not base64")
        }
    }

    /// The `{name, value}` items of a headers array, without HTTP/2 pseudo-headers and the names in `dropping`.
    func headers(_ value: JSONValue?, dropping: Set<String>) -> [RecordedExchange.Header] {
        (pairs(value) ?? []).compactMap { pair in
            pair.name.hasPrefix(":") || dropping.contains(pair.name.lowercased()) ? nil : .init(pair.name, pair.value)
        }
    }

    /// The `{name, value}` items of a HAR array (headers, queryString, params); items without a string name are
    /// left out, and a missing value is empty.
    private func pairs(_ value: JSONValue?) -> [(name: String, value: String)]? {
        guard case .array(let items) = value else { return nil }
        return items.compactMap { item in
            guard let name = item["name"]?.stringValue, !name.isEmpty else { return nil }
            return (name, item["value"]?.stringValue ?? "")
        }
    }

    /// The entry's `time`, in milliseconds, when the exporter gave one (-1 or absent when it did not). It is
    /// the one timing every exporter writes in milliseconds: Pulse's `timings` mix in seconds.
    private func milliseconds(_ entry: JSONValue) -> Double? {
        guard let time = entry["time"]?.doubleValue, time >= 0 else { return nil }
        return time
    }
}
