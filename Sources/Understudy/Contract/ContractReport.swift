import UnderstudyJSON
import UnderstudyOpenAPI

/// What the contract check has seen since the server started (or the report was cleared): exchanges and
/// violations by operation, and the last exchanges that broke the document with what they broke.
struct ContractReport {
    /// One operation's counts (or an undocumented method and path's, whose operation is nil).
    struct Tally {
        var operation: String?
        var method: String
        var path: String
        var exchanges = 0
        var violations = 0
        var mocked = 0
    }

    /// An exchange that broke the document.
    struct Broken {
        var time: Double
        var method: String
        var target: String
        var operation: String?
        var status: Int
        var mocked: Bool
        var violations: [ContractViolation]
        /// The start of the body that broke the document (the reply's, else the request's), as text.
        var body: String?
    }

    /// How much of an offending body the report keeps.
    static let maximumBodyExcerpt = 2_048

    static let maximumRecent = 100
    /// Undocumented paths are tallied one by one up to this many; past it they share one row.
    static let maximumTallies = 1_000

    let document: String
    private(set) var exchanges = 0
    private(set) var violationCount = 0
    /// The violations of the upstream's replies, apart from the requests': what the API broke, not its clients.
    private(set) var replyViolationCount = 0
    private(set) var mockedCount = 0
    private var tallies: [String: Tally] = [:]
    private var order: [String] = []
    private var recent: [Broken] = []

    init(document: String) {
        self.document = document
    }

    mutating func record(method: String, target: String, operation: OpenAPIOperation?, status: Int,
                         violations: [ContractViolation], mocked: Bool, time: Double, counted: Bool = true,
                         body: String? = nil) {
        if counted { exchanges += 1 }
        violationCount += violations.count
        replyViolationCount += violations.filter { $0.side == .response }.count
        if mocked { mockedCount += 1 }
        let path = operation?.path ?? String(target.prefix { $0 != "?" })
        var key = (operation?.id).map { "op " + $0 } ?? "\(method) \(path)"
        if tallies[key] == nil, tallies.count >= ContractReport.maximumTallies { key = "other" }
        if tallies[key] == nil {
            tallies[key] = key == "other" ? Tally(operation: nil, method: "*", path: "(other undocumented paths)")
                                          : Tally(operation: operation?.id, method: operation?.method ?? method, path: path)
            order.append(key)
        }
        if counted { tallies[key]?.exchanges += 1 }
        tallies[key]?.violations += violations.count
        if mocked { tallies[key]?.mocked += 1 }
        guard !violations.isEmpty else { return }
        recent.append(Broken(time: time, method: method, target: target, operation: operation?.id, status: status,
                             mocked: mocked, violations: violations, body: body))
        if recent.count > ContractReport.maximumRecent { recent.removeFirst(recent.count - ContractReport.maximumRecent) }
    }

    var json: JSONValue {
        .object(JSONObject([
            .init(key: "document", value: .string(document)),
            .init(key: "exchanges", value: .number(JSONNumber(exchanges))),
            .init(key: "violations", value: .number(JSONNumber(violationCount))),
            .init(key: "replyViolations", value: .number(JSONNumber(replyViolationCount))),
            .init(key: "mocked", value: .number(JSONNumber(mockedCount))),
            .init(key: "operations", value: .array(order.compactMap { tallies[$0] }.map { tally in
                .object(JSONObject([
                    .init(key: "operation", value: tally.operation.map(JSONValue.string) ?? .null),
                    .init(key: "method", value: .string(tally.method)),
                    .init(key: "path", value: .string(tally.path)),
                    .init(key: "exchanges", value: .number(JSONNumber(tally.exchanges))),
                    .init(key: "violations", value: .number(JSONNumber(tally.violations))),
                    .init(key: "mocked", value: .number(JSONNumber(tally.mocked))),
                ]))
            })),
            .init(key: "recent", value: .array(recent.map { broken in
                .object(JSONObject([
                    .init(key: "time", value: .number(JSONNumber(broken.time))),
                    .init(key: "method", value: .string(broken.method)),
                    .init(key: "target", value: .string(broken.target)),
                    .init(key: "operation", value: broken.operation.map(JSONValue.string) ?? .null),
                    .init(key: "status", value: .number(JSONNumber(broken.status))),
                    .init(key: "mocked", value: .bool(broken.mocked)),
                    .init(key: "violations", value: .array(broken.violations.map(\.json))),
                    .init(key: "body", value: broken.body.map(JSONValue.string) ?? .null),
                ]))
            })),
        ]))
    }
}
