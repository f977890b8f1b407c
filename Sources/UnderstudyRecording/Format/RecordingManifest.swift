import UnderstudyJSON

/// The manifest at the top of a recording (`understudy-recording.json`): the format's version and the options a
/// replay must match by.
///
/// ```json
/// {
///   "format": 1,
///   "redacts": true,
///   "ignoredQueryParameters": ["_"],
///   "redactedFields": ["sessionKey"]
/// }
/// ```
enum RecordingManifest {
    /// The version this code writes and reads.
    static let format = 1

    static func encode(_ options: RecordingOptions) -> [UInt8] {
        var object = JSONObject()
        object["format"] = .number(JSONNumber(format))
        object["redacts"] = .bool(options.redacts)
        object["ignoredQueryParameters"] = .array(options.ignoredQueryParameters.map { .string($0) })
        object["redactedFields"] = .array(options.redactedFields.map { .string($0) })
        return PrettyJSON.encode(.object(object))
    }

    static func decode(_ bytes: [UInt8], file: String) throws(RecordingError) -> RecordingOptions {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw RecordingError(file: file, line: error.line, column: error.column, reason: error.reason)
        }
        func fail(_ path: [JSONPathComponent], _ reason: String) -> RecordingError {
            let position = JSONParser.position(of: path, in: bytes)
            return RecordingError(file: file, line: position?.line ?? 1, column: position?.column ?? 1, reason: reason)
        }
        guard case .object = document else { throw fail([], "the manifest must be an object") }
        if let version = document["format"], version.intValue != format {
            throw fail([.key("format")], "this recording's format is \(JSONWriter.encode(version).string), but this Understudy reads format \(format)")
        }
        var options = RecordingOptions()
        if let redacts = document["redacts"] {
            guard case .bool(let flag) = redacts else { throw fail([.key("redacts")], "\"redacts\" must be true or false") }
            options.redacts = flag
        }
        for key in ["ignoredQueryParameters", "redactedFields"] {
            guard let value = document[key] else { continue }
            guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else {
                throw fail([.key(key)], "\"\(key)\" must be an array of strings")
            }
            let names = elements.compactMap(\.stringValue)
            if key == "redactedFields" { options.redactedFields = names } else { options.ignoredQueryParameters = names }
        }
        return options
    }
}

private extension [UInt8] {
    var string: String { String(decoding: self, as: UTF8.self) }
}
