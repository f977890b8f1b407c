import Foundation
import UnderstudyJSON
import UnderstudyOpenAPI

/// A document ``StubHost/init(openAPI:seed:validatesRequests:stateful:)`` cannot serve: each finding as
/// `file:line:column: error: message (at #/pointer)`.
public struct StubDocumentError: Error, CustomStringConvertible, Sendable {
    /// Every error the load found.
    public let findings: [String]

    public var description: String { findings.joined(separator: "\n") }
}

extension StubHost {
    /// A host that answers as an OpenAPI document (3.0, 3.1 or 3.2, as JSON) says, without a server: the same
    /// mock `understudy --spec` serves — examples, `Prefer` (code, example, dynamic, seed), validation, and state
    /// per `X-Understudy-Session` — answering through ``StubURLProtocol``.
    ///
    /// ```swift
    /// let host = try StubHost(openAPI: String(decoding: try Data(contentsOf: documentURL), as: UTF8.self))
    /// let session = URLSession(configuration: host.sessionConfiguration())
    /// ```
    ///
    /// The document's paths are served at ``baseURL`` (with or without its servers' base path). A YAML document
    /// needs a YAML parser, which this library leaves out so an app's tests link no C library: serve it with
    /// `UnderstudyServer` (`OpenAPISpec`), or convert it to JSON once.
    ///
    /// - Parameters:
    ///   - json: The document's JSON text; its `$ref`s stay within it.
    ///   - seed: The seed generated data is drawn with, unless a request's `Prefer: seed=` says otherwise.
    ///   - validatesRequests: Whether requests are checked against the document (401, 415, 422…).
    ///   - stateful: Whether the collections the document implies keep what is written to them.
    /// - Throws: ``StubDocumentError`` naming what is wrong where.
    public convenience init(openAPI json: String, seed: UInt64 = 1, validatesRequests: Bool = true,
                            stateful: Bool = true) throws(StubDocumentError) {
        let document: OpenAPIDocument
        do {
            let tree = try JSONParser.parse(json)
            document = try DocumentLoader(readers: DocumentReaders()).load(tree, uri: "memory:openapi.json")
        } catch let error as DocumentLoadError {
            throw StubDocumentError(findings: error.findings.filter { $0.severity == .error }.map(\.description))
        } catch {
            throw StubDocumentError(findings: ["openapi.json: \(error)"])
        }
        var options = MockOptions()
        options.validatesRequests = validatesRequests
        options.stateful = stateful
        let engine = MockEngine(document: document, options: options)
        self.init(fallback: { request in StubHost.answer(request, from: engine, seed: seed) })
    }

    private static func answer(_ request: RecordedRequest, from engine: MockEngine, seed: UInt64) -> StubResponse {
        let components = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        let mock = MockRequest(method: request.method, path: components?.percentEncodedPath ?? "/",
                               rawQuery: components?.percentEncodedQuery,
                               headers: request.headers.map { (name: $0.key, value: $0.value) },
                               body: request.body.map { Array($0) } ?? [])
        let answer = engine.respond(to: mock, session: request.header("X-Understudy-Session"), seed: seed)
        var headers: [String: String] = [:]
        for field in answer.headers {
            headers[field.name] = headers[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        return StubResponse(status: answer.status, headers: headers, chunks: answer.body.isEmpty ? [] : [Data(answer.body)])
    }
}
