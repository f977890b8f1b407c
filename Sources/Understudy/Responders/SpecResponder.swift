import UnderstudyOpenAPI

/// Answers from an OpenAPI document (`--spec`): the request becomes the mock's value and its answer a response, so
/// faults, sessions, the journal and the middleware treat it as any other. The session keeps its own state and its
/// seed; `Prefer` (or the `__code` query) chooses the response.
final class SpecResponder: Responder {
    let engine: MockEngine
    private let clock: @Sendable () -> Double

    init(engine: MockEngine, clock: @escaping @Sendable () -> Double) {
        self.engine = engine
        self.clock = clock
    }

    /// A document's API has its own rate-limit headers, if any; DummyJSON's are not added to it.
    var sendsRateLimitWindow: Bool { false }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        let mock = MockRequest(method: request.method, path: String(request.path), rawQuery: request.rawQuery.map(String.init),
                               headers: request.headers.decoded.fields, body: request.body)
        let answer = engine.respond(to: mock, session: request.session, seed: seed, now: clock())
        var headers = HTTPHeaders()
        for field in answer.headers { headers.add(field.name, field.value) }
        let body: HTTPResponse.Body = answer.body.isEmpty ? .empty : .bytes(answer.body)
        return .response(HTTPResponse(status: answer.status, headers: headers, body: body))
    }
}
