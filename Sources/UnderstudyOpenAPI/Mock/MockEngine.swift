import Foundation
import UnderstudyJSON
import UnderstudyLocking

/// Serves a document: routes a request to its operation, checks it, and answers as the document says, the way
/// Prism's `mock` does (the lowest 2xx; `Prefer` and the `__code` query; a named example, the first one, or data
/// from the schema; 401, 415, 406 and 422 in Prism's order), with what Prism refuses to keep: state, per session.
/// Safe to use from any thread: what changes (the state, forced preferences) sits behind locks.
package final class MockEngine: Sendable {
    package let document: OpenAPIDocument
    package let options: MockOptions
    let router: SpecRouter
    let requests: RequestValidator
    let state: MockState
    /// Preferences set per operation (the control room, the admin API), under each request's own.
    private let forced = Locked<[String: MockPreference]>([:])
    /// Moves whenever what a request is answered with may change (a preference set or cleared, state reset), so an
    /// answer kept as `repeatable` is dropped.
    package let changes = SharedCounter(0)

    package init(document: OpenAPIDocument, options: MockOptions = MockOptions()) {
        self.document = document
        self.options = options
        router = SpecRouter(document)
        requests = RequestValidator(document: document, assertsFormats: options.assertsFormats)
        state = MockState(document: document, enabled: options.stateful)
    }

    /// The answer to `request`. `seed` is what generated data and new ids draw from (the session's, or the
    /// server's); `session` keeps state apart; `now` (seconds since 1970) stamps created items.
    package func respond(to request: MockRequest, session: String? = nil, seed: UInt64 = 1, now: Double = Date().timeIntervalSince1970) -> MockResponse {
        let index: Int
        let parameters: [String: String]
        switch router.route(method: request.method, path: request.path, query: request.rawQuery) {
        case .operation(let found, let captured):
            index = found
            parameters = captured
        case .methodNotAllowed(let allowed):
            if request.method == "OPTIONS", request.header("Access-Control-Request-Method") != nil {
                return MockResponse(status: 204)  // A preflight: CORS headers are the server's to add.
            }
            return ProblemJSON.response("METHOD_NOT_ALLOWED", title: "Method Not Allowed", status: 405,
                                        detail: "\(request.method) is not an operation of \(request.path) in the document; it takes \(allowed.joined(separator: ", "))",
                                        headers: [("Allow", allowed.joined(separator: ", "))])
        case .notFound:
            if request.method == "OPTIONS", request.header("Access-Control-Request-Method") != nil { return MockResponse(status: 204) }
            return ProblemJSON.response("NOT_FOUND", title: "Not Found", status: 404,
                                        detail: "No operation of the document has the path \(request.path)")
        }
        let operation = document.operations[index]
        var preference: MockPreference
        do {
            preference = try MockPreference.of(request)
        } catch {
            return ProblemJSON.response("INVALID_PREFERENCE", title: "Bad Request", status: 400, detail: error.message,
                                        operationID: operation.id)
        }
        if let set = forced.withLock({ $0[operation.id] }) {
            preference.code = preference.code ?? set.code
            preference.example = preference.example ?? set.example
            preference.dynamic = preference.dynamic ?? set.dynamic
            preference.seed = preference.seed ?? set.seed
        }
        let context = MockContext(seed: preference.seed.map(MockEngine.seed) ?? seed, dynamic: preference.dynamic ?? options.dynamic,
                                  now: now)
        if options.validatesRequests, let failure = requests.check(request, operation, pathParameters: parameters) {
            var response = invalid(request, operation, failure, context: context)
            response.operationID = operation.id
            return response
        }
        let builder = ResponseBuilder(document: document, operation: operation, request: request, context: context)
        if preference.code == nil, preference.example == nil, let stored = state.answer(request, operation, parameters: parameters,
                                                                                         body: requests.body(of: request, for: operation),
                                                                                         session: session, builder: builder) {
            return stored
        }
        var answer = builder.response(code: preference.code, example: preference.example)
        answer.repeatable = (200..<300).contains(answer.status) && request.method == "GET" && request.body.isEmpty
            && preference.isEmpty && !builder.seedUse.drew && operation.security.isEmpty && !state.covers(index)
            && !operation.parameters.contains { $0.location == .header || $0.location == .cookie }
        return answer
    }

    /// The document's own response for `status` on the operation `request` reaches (that code, its range, or
    /// `default`), built as a `Prefer: code=` would build it but without checking the request or touching state: what
    /// a status fault answers with on a document's route, so a client generated from the document can read it. Nil
    /// when no operation matches or it documents nothing for the status.
    package func documented(status: Int, for request: MockRequest, seed: UInt64 = 1) -> MockResponse? {
        guard case .operation(let index, _) = router.route(method: request.method, path: request.path, query: request.rawQuery) else { return nil }
        let operation = document.operations[index]
        guard operation.response(forStatus: status) != nil else { return nil }
        let context = MockContext(seed: seed, dynamic: options.dynamic, now: Date().timeIntervalSince1970)
        var builder = ResponseBuilder(document: document, operation: operation, request: request, context: context)
        builder.ignoresAccept = true
        let response = builder.response(code: status, example: nil)
        return response.status == status ? response : nil
    }

    /// A request the document would refuse, answered as Prism does: the operation's own 401, 415, 422 or 400 (or its
    /// `default`, with that status), else a problem+json naming every failure.
    private func invalid(_ request: MockRequest, _ operation: OpenAPIOperation, _ failure: RequestValidator.Failure,
                         context: MockContext) -> MockResponse {
        let candidates: [Int]
        var headers: [(name: String, value: String)] = []
        let problem: MockResponse
        let reason: String
        switch failure {
        case .unauthorized(let challenges):
            candidates = [401]
            if !challenges.isEmpty { headers.append(("WWW-Authenticate", challenges.joined(separator: ", "))) }
            reason = "the operation's security needs credentials the request does not carry"
            problem = ProblemJSON.response("UNAUTHORIZED", title: "Unauthorized", status: 401, detail: reason, headers: headers)
        case .unsupportedMediaType(let detail):
            candidates = [415, 422, 400]
            reason = detail
            problem = ProblemJSON.response("UNSUPPORTED_MEDIA_TYPE", title: "Unsupported Media Type", status: 415, detail: detail)
        case .invalid(let items):
            candidates = [422, 400]
            let detail = "the request does not match the document: " + items.prefix(3).map { "\($0.location.joined(separator: ".")): \($0.message)" }.joined(separator: "; ")
            reason = detail
            problem = ProblemJSON.response("UNPROCESSABLE_ENTITY", title: "Unprocessable Entity", status: 422, detail: detail,
                                           validation: items)
        }
        let defined = candidates.first { code in operation.responses.contains { $0.code == String(code) || $0.code == "\(code / 100)XX" } }
        guard let code = defined ?? (operation.responses.contains { $0.code == "default" } ? candidates[0] : nil) else { return problem }
        var builder = ResponseBuilder(document: document, operation: operation, request: request, context: context)
        builder.ignoresAccept = true
        var response = builder.response(code: code, example: nil)
        response.headers += headers
        // The document's own refusal says nothing of why (DigitalOcean's: "some error message"): the reason rides
        // along in a header of the mock's own.
        response.headers.append((Self.refusedHeader, Self.headerText(reason)))
        return response
    }

    /// Why the mock refused a request it answered with the document's own 4xx.
    package static let refusedHeader = "X-Understudy-Refused"

    /// `text` as one header line: control characters as spaces, at most 1,024 bytes.
    private static func headerText(_ text: String) -> String {
        var line = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        while line.utf8.count > 1_024 { line = String(line.dropLast(1 + (line.utf8.count - 1_024) / 4)) }
        return line
    }

    /// Whether `method` on `path` answers with an event stream (`text/event-stream`): its lowest 2xx has only that
    /// media type, or has it and the request accepts it (`accept`, the request's `Accept`).
    package func answersWithEvents(method: String, path: String, accept: String?) -> Bool {
        guard case .operation(let index, _) = router.route(method: method, path: path) else { return false }
        let responses = document.operations[index].responses.filter { $0.code.hasPrefix("2") }.sorted { $0.code < $1.code }
        guard let types = responses.first?.content.map({ MediaTypes.essence($0.type) }), types.contains("text/event-stream") else { return false }
        return types.count == 1 || (accept.map { MediaTypes.accepted($0).first == "text/event-stream" } ?? false)
    }

    /// A seed from `Prefer: seed=` text: its number, or a hash of its text.
    static func seed(_ text: String) -> UInt64 {
        if let number = UInt64(text) { return number }
        var random = SeededRandom(seed: 0).derived(text)
        return random.next()
    }

    /// Sets (or with nil clears) the preference every request of an operation gets under its own.
    package func force(_ preference: MockPreference?, operation id: String) {
        forced.withLock { $0[id] = preference }
        _ = changes.increment()
    }

    /// The preferences set per operation.
    package var forcedPreferences: [String: MockPreference] { forced.withLock { $0 } }

    /// Forgets what was written, for one session or (nil) every one, and every forced preference with `all`.
    package func reset(session: String?) {
        state.reset(session: session)
        _ = changes.increment()
    }

    /// Clears every forced preference.
    package func clearForced() {
        forced.withLock { $0 = [:] }
        _ = changes.increment()
    }
}

/// What one answer draws on: the seed, whether bodies are generated, and the time.
struct MockContext {
    var seed: UInt64
    var dynamic: Bool
    var now: Double
}
