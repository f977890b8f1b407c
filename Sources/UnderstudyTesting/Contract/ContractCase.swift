import Foundation
import UnderstudyJSON

/// A golden case from Understudy's contract (one JSON file per behaviour): the request a client makes and the
/// response the server is held to, ready to replay through ``StubURLProtocol`` with no server running.
///
/// The cases ship as resources of this library, so a consumer package loads them by name (``named(_:)``); the
/// format is described in Understudy's `fixtures/contracts/README.md`.
///
/// The response replays the case's status, the headers it pins and its recorded body: `body` as the case file
/// writes it (so with the server's key order; the file's indentation is whitespace any JSON decoder skips),
/// `bodyText` (a short event stream) or `bodyEmpty`. Cases that pin only keys, values or a schema (a login, whose
/// tokens change) have no body to replay and are refused when loaded.
///
/// ```swift
/// let host = try StubHost(contractCasesNamed: "products-by-id", "products-by-id-not-found-195")
/// let client = APIClient(baseURL: host.baseURL, sessionConfiguration: host.sessionConfiguration())
/// ```
public struct ContractCase: Sendable {
    /// Why a case file cannot be replayed.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        /// The case file's name.
        public let file: String
        /// What is wrong with it.
        public let reason: String
        /// `file: reason`.
        public var description: String { "\(file): \(reason)" }
    }

    /// The case's name (its file name without `.json`).
    public let name: String
    /// The request's method, e.g. `GET`.
    public let method: String
    /// The request's path as sent, percent-encoded where needed.
    public let path: String
    /// The request's query parameters in order, a repeated one once per value.
    public let query: [(name: String, value: String)]
    /// The request headers the case sends; `{{token:…}}` placeholders stand for any value.
    public let headers: [String: String]
    /// The recorded response.
    public let response: StubResponse

    /// The folder of the cases shipped with this library.
    public static var bundledDirectory: URL {
        Bundle.module.resourceURL?.appendingPathComponent("contracts", isDirectory: true)
            ?? Bundle.module.bundleURL.appendingPathComponent("contracts", isDirectory: true)
    }

    /// The names of every case shipped with this library, sorted.
    public static var bundledNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: bundledDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Loads a case shipped with this library by name, e.g. `"products-by-id"`.
    ///
    /// - Parameter name: The case's name (its file name without `.json`).
    /// - Returns: The case.
    /// - Throws: ``LoadError`` when there is no such case, or it records no body to replay.
    public static func named(_ name: String) throws -> ContractCase {
        let url = bundledDirectory.appendingPathComponent(name + ".json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LoadError(file: name + ".json", reason: "no such contract case in UnderstudyTesting's resources")
        }
        return try ContractCase(contentsOf: url)
    }

    /// Loads a case file.
    ///
    /// - Parameter url: A case file, e.g. one of ``bundledDirectory``.
    /// - Throws: ``LoadError`` when the file is not a case, or records no body to replay; the file system's error
    ///   when it cannot be read.
    public init(contentsOf url: URL) throws {
        let file = url.lastPathComponent
        // One parse, with UnderstudyJSON's parser: it keeps the body's keys in the file's (the server's) order, which
        // `JSONSerialization` would lose.
        let document: JSONValue
        do {
            document = try JSONParser.parse([UInt8](Data(contentsOf: url)))
        } catch let error as JSONParseError {
            throw LoadError(file: file, reason: "not JSON: \(error)")
        }
        guard let request = document["request"], let expected = document["response"],
              let method = request["method"]?.stringValue, let path = request["path"]?.stringValue,
              let status = expected["status"]?.intValue else {
            throw LoadError(file: file, reason: "not a contract case (request.method, request.path, response.status)")
        }
        name = document["name"]?.stringValue ?? String(file.dropLast(file.hasSuffix(".json") ? 5 : 0))
        self.method = method
        self.path = path
        query = Self.members(request["query"]).flatMap { name, value -> [(name: String, value: String)] in
            Self.strings(value).map { (name, $0) }
        }
        headers = Self.stringMembers(request["headers"])
        let body: Data
        if let recorded = expected["body"] {
            // Written compactly in the file's key order.
            body = Data(JSONWriter.encode(recorded))
        } else if let text = expected["bodyText"]?.stringValue {
            body = Data(text.utf8)
        } else if expected["bodyEmpty"] == .bool(true) || status == 204 || status == 304 {
            body = Data()
        } else {
            throw LoadError(file: file, reason: "the case pins no body to replay (only keys, values or a schema)")
        }
        response = StubResponse(status: status, headers: Self.stringMembers(expected["headers"]),
                                chunks: body.isEmpty ? [] : [body])
    }

    /// An object's members in order; none when `value` is absent or not an object.
    private static func members(_ value: JSONValue?) -> [(String, JSONValue)] {
        guard case .object(let object)? = value else { return [] }
        return object.entries.map { ($0.key, $0.value) }
    }

    /// A query parameter's values: each string of an array of strings, else the one string (or "" for any other
    /// value).
    private static func strings(_ value: JSONValue) -> [String] {
        if case .array(let items) = value {
            let texts = items.compactMap(\.stringValue)
            if texts.count == items.count { return texts }
        }
        return [value.stringValue ?? ""]
    }

    /// An object of strings as a dictionary; empty when it is absent, not an object, or has a value that is not a
    /// string.
    private static func stringMembers(_ value: JSONValue?) -> [String: String] {
        var strings: [String: String] = [:]
        for (name, value) in members(value) {
            guard let text = value.stringValue else { return [:] }
            strings[name] = text
        }
        return strings
    }

    /// Whether `request` is this case's request: the same method, path and query (in any order), and every header
    /// the case sends, with the same value (a `{{token:…}}` placeholder matches any). The body is not compared.
    public func matches(_ request: RecordedRequest) -> Bool {
        guard request.method == method, let url = request.url,
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.percentEncodedPath == path else { return false }
        let sent = (components.queryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }.sorted()
        let wanted = query.map { "\($0.name)=\($0.value)" }.sorted()
        guard sent.count == wanted.count, zip(sent, wanted).allSatisfy(ContractCase.same) else { return false }
        return headers.allSatisfy { name, value in request.header(name).map { ContractCase.same($0, value) } ?? false }
    }

    /// Text equality where each `{{token:NAME}}` in `pattern` stands for any non-empty run of characters.
    static func same(_ text: String, _ pattern: String) -> Bool {
        guard pattern.contains("{{token:") else { return text == pattern }
        var pieces: [Substring] = []
        var rest = Substring(pattern)
        while let open = rest.range(of: "{{token:"), let close = rest[open.upperBound...].range(of: "}}") {
            pieces.append(rest[..<open.lowerBound])
            rest = rest[close.upperBound...]
        }
        pieces.append(rest)
        guard text.hasPrefix(pieces[0]) else { return false }
        var remaining = Substring(text).dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() {
            guard let found = remaining.dropFirst().range(of: piece) else { return false }
            remaining = remaining[found.upperBound...]
        }
        let last = pieces[pieces.count - 1]
        return remaining.count > last.count && remaining.hasSuffix(last)
    }
}
