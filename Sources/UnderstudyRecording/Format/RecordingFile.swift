import Foundation
import UnderstudyJSON

/// One file of a recording: a request and its answers in order (the sequence), pretty-printed with a stable key
/// order so a pull request shows what changed.
///
/// ```json
/// {
///   "request": {
///     "method": "GET",
///     "path": "/products/1",
///     "query": [
///       ["select", "title"]
///     ],
///     "headers": [
///       ["Accept", "application/json"]
///     ]
///   },
///   "responses": [
///     {
///       "status": 200,
///       "headers": [
///         ["Content-Type", "application/json; charset=utf-8"]
///       ],
///       "bodyEncoding": "json",
///       "body": {"id": 1, "title": "Essence Mascara Lash Princess"}
///     }
///   ]
/// }
/// ```
///
/// Each header and query item is one `[name, value]` line, so one changed header is one changed line in a diff.
/// A body is absent when empty; `bodyEncoding` is `json` (the body is the document itself), `text` (a string) or
/// `base64` (a string).
///
/// A WebSocket's answer is a 101 with its conversation in `messages`, each message one object: who sent it
/// (`from`, `client` or `server`), when (`at`, whole milliseconds since the socket opened) and its payload as `text`
/// or, for a binary message, as `base64`:
///
/// ```json
/// {
///   "status": 101,
///   "headers": [],
///   "messages": [
///     {
///       "from": "client",
///       "at": 0,
///       "text": "{\"subscribe\":\"prices\"}"
///     },
///     {
///       "from": "server",
///       "at": 80,
///       "text": "{\"price\":9.99}"
///     }
///   ]
/// }
/// ```
enum RecordingFile {
    /// The file's bytes.
    static func encode(_ request: RecordedExchange.Request, _ responses: [RecordedExchange.Response]) -> [UInt8] {
        var requestObject = JSONObject()
        requestObject["method"] = .string(request.method)
        requestObject["path"] = .string(request.path)
        requestObject["query"] = .array(request.query.map { .array([.string($0.name), .string($0.value)]) })
        requestObject["headers"] = headers(request.headers)
        addBody(request.body, headers: request.headers, to: &requestObject)
        let responseObjects: [JSONValue] = responses.map { response in
            var object = JSONObject()
            object["status"] = .number(JSONNumber(response.status))
            object["headers"] = headers(response.headers)
            addBody(response.body, headers: response.headers, to: &object)
            if !response.messages.isEmpty { object["messages"] = .array(response.messages.map(message)) }
            if response.messagesLeftOut > 0 { object["messagesLeftOut"] = .number(JSONNumber(response.messagesLeftOut)) }
            return .object(object)
        }
        var file = JSONObject()
        file["request"] = .object(requestObject)
        file["responses"] = .array(responseObjects)
        return PrettyJSON.encode(.object(file))
    }

    /// The request and responses a file holds.
    /// - Throws: `RecordingError` with the line and column of what is wrong (invalid JSON, a missing or mistyped
    ///   member).
    static func decode(_ bytes: [UInt8], file: String) throws(RecordingError) -> (RecordedExchange.Request, [RecordedExchange.Response]) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw RecordingError(file: file, line: error.line, column: error.column, reason: error.reason)
        }
        let reader = Reader(bytes: bytes, file: file)
        let requestValue = try reader.member("request", of: document, at: [])
        let requestPath: [JSONPathComponent] = [.key("request")]
        let method = try reader.string("method", of: requestValue, at: requestPath)
        let path = try reader.string("path", of: requestValue, at: requestPath)
        guard path.hasPrefix("/") else {
            throw reader.error(at: requestPath + [.key("path")], "the path must start with '/'")
        }
        let query = try reader.pairs("query", of: requestValue, at: requestPath).map { RecordedExchange.QueryItem($0, $1) }
        let requestHeaders = try reader.pairs("headers", of: requestValue, at: requestPath).map { RecordedExchange.Header($0, $1) }
        let requestBody = try reader.body(of: requestValue, at: requestPath)
        let request = RecordedExchange.Request(method: method, path: path, query: query, headers: requestHeaders, body: requestBody)

        guard case .array(let responseValues) = try reader.member("responses", of: document, at: []) else {
            throw reader.error(at: [.key("responses")], "\"responses\" must be an array of responses")
        }
        guard !responseValues.isEmpty else {
            throw reader.error(at: [.key("responses")], "\"responses\" holds no response")
        }
        var responses: [RecordedExchange.Response] = []
        for (index, value) in responseValues.enumerated() {
            let at: [JSONPathComponent] = [.key("responses"), .index(index)]
            guard let status = try reader.member("status", of: value, at: at).intValue, (100...599).contains(status) else {
                throw reader.error(at: at + [.key("status")], "the status must be an integer from 100 to 599")
            }
            let headers = try reader.pairs("headers", of: value, at: at).map { RecordedExchange.Header($0, $1) }
            responses.append(RecordedExchange.Response(status: status, headers: headers, body: try reader.body(of: value, at: at),
                                                       messages: try reader.messages(of: value, at: at),
                                                       messagesLeftOut: try reader.messagesLeftOut(of: value, at: at)))
        }
        return (request, responses)
    }

    private static func headers(_ headers: [RecordedExchange.Header]) -> JSONValue {
        .array(headers.map { .array([.string($0.name), .string($0.value)]) })
    }

    private static func message(_ message: RecordedSocketMessage) -> JSONValue {
        var object = JSONObject()
        object["from"] = .string(message.sender.rawValue)
        object["at"] = .number(JSONNumber(Int(message.milliseconds.rounded())))
        if message.isBinary {
            object["base64"] = .string(Data(message.data).base64EncodedString())
        } else {
            object["text"] = .string(String(decoding: message.data, as: UTF8.self))
        }
        return .object(object)
    }

    private static func addBody(_ body: [UInt8], headers: [RecordedExchange.Header], to object: inout JSONObject) {
        guard !body.isEmpty else { return }
        let stored = BodyKind.stored(body, contentType: headers.value(for: "Content-Type"))
        object["bodyEncoding"] = .string(stored.kind.rawValue)
        object["body"] = stored.value
    }
}

/// Reads the members of a parsed recording file, reporting a problem at the line and column of the value.
private struct Reader {
    let bytes: [UInt8]
    let file: String

    func error(at path: [JSONPathComponent], _ reason: String) -> RecordingError {
        let position = JSONParser.position(of: path, in: bytes)
        return RecordingError(file: file, line: position?.line ?? 1, column: position?.column ?? 1, reason: reason)
    }

    func member(_ key: String, of value: JSONValue, at path: [JSONPathComponent]) throws(RecordingError) -> JSONValue {
        guard case .object = value else { throw error(at: path, "\(path.pathDescription) must be an object") }
        guard let member = value[key] else { throw error(at: path, "\(path.pathDescription) has no \"\(key)\"") }
        return member
    }

    func string(_ key: String, of value: JSONValue, at path: [JSONPathComponent]) throws(RecordingError) -> String {
        guard let text = try member(key, of: value, at: path).stringValue else {
            throw error(at: path + [.key(key)], "\"\(key)\" must be a string")
        }
        return text
    }

    /// An optional array of `[name, value]` string pairs (absent: none).
    func pairs(_ key: String, of value: JSONValue, at path: [JSONPathComponent]) throws(RecordingError) -> [(String, String)] {
        guard let member = value[key] else { return [] }
        guard case .array(let elements) = member else {
            throw error(at: path + [.key(key)], "\"\(key)\" must be an array of [name, value] pairs")
        }
        var pairs: [(String, String)] = []
        for (index, element) in elements.enumerated() {
            guard case .array(let pair) = element, pair.count == 2, let name = pair[0].stringValue, let text = pair[1].stringValue else {
                throw error(at: path + [.key(key), .index(index)], "each of \"\(key)\" must be a [name, value] pair of strings")
            }
            pairs.append((name, text))
        }
        return pairs
    }

    /// A 101's optional `messages` (absent: none), each `{from, at, text | base64}`.
    func messages(of value: JSONValue, at path: [JSONPathComponent]) throws(RecordingError) -> [RecordedSocketMessage] {
        guard let listed = value["messages"] else { return [] }
        let path = path + [.key("messages")]
        guard case .array(let elements) = listed else { throw error(at: path, "\"messages\" must be an array of messages") }
        var messages: [RecordedSocketMessage] = []
        for (index, element) in elements.enumerated() {
            let at = path + [.index(index)]
            let from = try string("from", of: element, at: at)
            guard let sender = RecordedSocketMessage.Sender(rawValue: from) else {
                throw error(at: at + [.key("from")], "\"from\" must be \"client\" or \"server\", not \"\(from)\"")
            }
            guard let milliseconds = try member("at", of: element, at: at).doubleValue, milliseconds >= 0 else {
                throw error(at: at + [.key("at")], "\"at\" must be the milliseconds since the socket opened, 0 or more")
            }
            if let text = element["text"]?.stringValue {
                messages.append(RecordedSocketMessage(sender, text: text, milliseconds: milliseconds))
            } else if let encoded = element["base64"]?.stringValue, let data = Data(base64Encoded: encoded) {
                messages.append(RecordedSocketMessage(sender, data: [UInt8](data), isBinary: true, milliseconds: milliseconds))
            } else {
                throw error(at: at, "a message needs its payload as a \"text\" string or a \"base64\" string")
            }
        }
        return messages
    }

    /// A 101's optional `messagesLeftOut` (absent: 0): how many later messages the recording did not keep.
    func messagesLeftOut(of value: JSONValue, at path: [JSONPathComponent]) throws(RecordingError) -> Int {
        guard let given = value["messagesLeftOut"] else { return 0 }
        guard let count = given.intValue, count >= 0 else {
            throw error(at: path + [.key("messagesLeftOut")], "\"messagesLeftOut\" must be a whole number, 0 or more")
        }
        return count
    }

    func body(of value: JSONValue, at path: [JSONPathComponent]) throws(RecordingError) -> [UInt8] {
        guard let body = value["body"] else { return [] }
        let encoding = value["bodyEncoding"]?.stringValue ?? BodyKind.json.rawValue
        guard let kind = BodyKind(rawValue: encoding) else {
            throw error(at: path + [.key("bodyEncoding")], "\"bodyEncoding\" must be \"json\", \"text\" or \"base64\", not \"\(encoding)\"")
        }
        guard let bytes = kind.bytes(of: body) else {
            throw error(at: path + [.key("body")], "the body is not valid \(kind.rawValue)")
        }
        return bytes
    }
}
