import Foundation
import UnderstudyFaultSpec
import UnderstudyJSON
import UnderstudyLocking
import UnderstudyOpenAPI

/// Holds an upstream's real traffic to the document it is described by (`--upstream URL --spec FILE`): checks each
/// request and each reply (`ContractChecker`), answers from the document what the upstream lacks, and keeps the
/// report `/__understudy/violations` gives. The checks are values; the report sits behind a lock, read by the
/// admin API while the loop writes it.
final class ContractWatch: Sendable {
    let checker: ContractChecker
    /// Answers the operations the upstream does not implement (and the mocked paths).
    let mock: MockEngine
    let failsOnViolations: Bool
    let mocksMissingOperations: Bool
    private let mockedPaths: [RuleMatch]
    private let report: Locked<ContractReport>
    private let clock: @Sendable () -> Double
    /// The server's seed, which a reply answered from the document draws from.
    let seed: @Sendable () -> UInt64

    /// The `X-Understudy-Violations` header's value is kept under this many bytes; the rest are counted.
    static let headerByteLimit = 8 << 10
    /// Replies larger than this are not held for their body to be checked (their head still is).
    static let bodyByteLimit = 16 << 20
    static let violationsHeader = "X-Understudy-Violations"
    static let mockedHeader = "X-Understudy-Mocked"

    init(spec: OpenAPISpec, clock: @escaping @Sendable () -> Double, seed: @escaping @Sendable () -> UInt64) {
        self.seed = seed
        checker = spec.makeContract()
        mock = spec.makeEngine()
        failsOnViolations = spec.options.failsOnViolations
        mocksMissingOperations = spec.options.mocksMissingOperations
        mockedPaths = spec.options.mockedPaths.map { RuleMatch(path: $0) }
        report = Locked(ContractReport(document: spec.title))
        self.clock = clock
    }

    // MARK: Checks

    /// The operation a request reaches and what is wrong with it.
    func check(_ request: HTTPRequest) -> (operation: OpenAPIOperation?, violations: [ContractViolation]) {
        checker.check(MockRequest(request))
    }

    /// What is wrong with the upstream's reply.
    func check(status: Int, headers: HTTPHeaders, body: [UInt8], of operation: OpenAPIOperation, isHead: Bool) -> [ContractViolation] {
        checker.check(status: status, headers: headers.fields, body: body, of: operation, isHead: isHead)
    }

    /// Whether the request's path is one answered from the document and never forwarded.
    func isMocked(_ request: HTTPRequest) -> Bool {
        mockedPaths.contains { $0.matches(method: request.method, path: String(request.path), header: { _ in nil }, query: { _ in nil }) }
    }

    /// Whether an upstream's `status` says it lacks `operation`: a 501, or a 404 the operation does not document.
    func lacks(_ operation: OpenAPIOperation?, status: Int) -> Bool {
        guard mocksMissingOperations, let operation else { return false }
        return status == 501 || (status == 404 && !operation.responses.contains { $0.code == "404" || $0.code == "4XX" })
    }

    /// The document's answer to `request`, marked as not the upstream's.
    func mocked(_ request: HTTPRequest, seed: UInt64) -> HTTPResponse {
        var response = HTTPResponse(mock.respond(to: MockRequest(request), session: request.session, seed: seed,
                                                 now: clock()))
        response.headers.add(ContractWatch.mockedHeader, "openapi")
        return response
    }

    // MARK: Reporting

    /// Counts an exchange and keeps it when it broke the document.
    /// `counted` false adds violations to an exchange counted already (a body checked after its head).
    /// `replyBody`: the reply's body, when it was read, kept in part when the reply's body broke the document.
    func record(_ request: HTTPRequest, operation: OpenAPIOperation?, status: Int, violations: [ContractViolation],
                mocked: Bool = false, counted: Bool = true, replyBody: [UInt8]? = nil) {
        let time = clock()
        let body = ContractWatch.offendingBody(violations, request: request, replyBody: replyBody)
        report.withLock { $0.record(method: request.method, target: request.target, operation: operation, status: status,
                                    violations: violations, mocked: mocked, time: time, counted: counted, body: body) }
    }

    /// The body a violation names (the reply's before the request's), cut to the report's excerpt, as text.
    static func offendingBody(_ violations: [ContractViolation], request: HTTPRequest, replyBody: [UInt8]?) -> String? {
        let bodies = [(["response", "body"], replyBody), (["request", "body"], request.body)]
        for (location, body) in bodies {
            guard let body, !body.isEmpty, violations.contains(where: { $0.location.starts(with: location) }) else { continue }
            return String(decoding: body.prefix(ContractReport.maximumBodyExcerpt), as: UTF8.self)
        }
        return nil
    }

    /// The report as JSON (`GET /__understudy/violations`).
    var reportJSON: JSONValue { report.withLock { $0.json } }

    /// Forgets every exchange counted; returns how many violations there were.
    func clear() -> Int {
        report.withLock { report in
            defer { report = ContractReport(document: report.document) }
            return report.violationCount
        }
    }

    /// `violations` as the header's JSON list, under `headerByteLimit`: past it, the last item says how many more.
    static func headerValue(_ violations: [ContractViolation]) -> String {
        var kept: [JSONValue] = []
        var bytes = 2
        for (index, violation) in violations.enumerated() {
            let item = violation.json
            let size = JSONWriter.encode(item).count + 1
            if bytes + size > headerByteLimit - 200 {
                kept.append(.object(JSONObject([
                    .init(key: "keyword", value: .string("more")),
                    .init(key: "message", value: .string("\(violations.count - index) more: GET /__understudy/violations lists them")),
                ])))
                break
            }
            kept.append(item)
            bytes += size
        }
        return String(decoding: JSONWriter.encode(.array(kept)), as: UTF8.self)
    }

    /// The problem+json reply that stands in for an exchange that broke the document (`failsOnViolations`).
    static func refusal(_ violations: [ContractViolation], status: Int, operation: OpenAPIOperation?) -> HTTPResponse {
        let what = status == 422 ? "The request breaks the document" : "The upstream's reply breaks the document"
        let detail = what + (operation.map { " (\($0.id))" } ?? "") + ": "
            + violations.prefix(3).map(\.description).joined(separator: "; ")
        let body = JSONValue.object(JSONObject([
            .init(key: "type", value: .string("urn:understudy:problem:CONTRACT_VIOLATION")),
            .init(key: "title", value: .string(status == 422 ? "Unprocessable Content" : "Bad Gateway")),
            .init(key: "status", value: .number(JSONNumber(status))),
            .init(key: "detail", value: .string(detail)),
            .init(key: "message", value: .string(detail)),
            .init(key: "violations", value: .array(violations.map(\.json))),
        ]))
        var response = HTTPResponse(status: status, headers: ["Content-Type": "application/problem+json"],
                                    body: .bytes(JSONWriter.encode(body)))
        response.headers.add(violationsHeader, headerValue(violations))
        return response
    }
}
