import Foundation
import UnderstudyLocking
import UnderstudyOpenAPI

/// What a forwarded exchange is held to (`--upstream URL --spec FILE`): the watch, the request, the operation it
/// reaches (nil: none, itself a violation) and what is wrong with the request already.
struct ContractPlan {
    let watch: ContractWatch
    let request: HTTPRequest
    let operation: OpenAPIOperation?
    let requestViolations: [ContractViolation]
    /// Hands work back to the loop, from the thread that checked a body.
    let submit: @Sendable (@escaping @Sendable () -> Void) -> Void
}

/// A reply body being checked off the loop (a large body takes milliseconds the loop owes other connections): the
/// violations once found, and the waker of the delivery waiting for them.
///
/// `@unchecked Sendable`: `found` is behind its lock; `waker` is set and called on the loop thread only, since the
/// checking thread hands the wake to the loop (`ContractPlan.submit`).
final class ContractBodyCheck: @unchecked Sendable {
    private let found = Locked<[ContractViolation]?>(nil)
    var waker: DeliveryWaker?

    /// The violations, once the check is done.
    var violations: [ContractViolation]? { found.withLock { $0 } }

    /// Checks `body` on another thread, then wakes the delivery on the loop.
    static func start(_ plan: ContractPlan, operation: OpenAPIOperation, head: UpstreamExchange.Head, body: [UInt8],
                      waker: DeliveryWaker?) -> ContractBodyCheck {
        let check = ContractBodyCheck()
        check.waker = waker
        let watch = plan.watch
        let submit = plan.submit
        let status = head.status
        let headers = head.headers
        DispatchQueue.global().async {
            let violations = watch.check(status: status, headers: headers, body: body, of: operation, isHead: false)
            check.found.withLock { $0 = violations }
            submit { check.waker?.wake() }
        }
        return check
    }
}

extension ProxiedReply {
    /// Whether the reply is held until its body has come, so the body is checked before the head (which carries
    /// `X-Understudy-Violations`) goes out. The bytes are the upstream's either way. Not held: a reply to an
    /// undocumented operation, to a HEAD, without a body, an event stream (checked as it starts), one reset after
    /// its head, or a body over `ContractWatch.bodyByteLimit`, checked on their head alone; nor a reply paced or
    /// cut by a fault, whose timing the hold would change: its body is checked once it has gone, for the report.
    func holdsForContract(_ head: UpstreamExchange.Head, isEventStream: Bool) -> Bool {
        checksBody(head, isEventStream: isEventStream) && plan.pacing == nil && plan.truncation == nil
    }

    /// Whether the body is checked at all: it is not for the replies checked on their head alone.
    func checksBody(_ head: UpstreamExchange.Head, isEventStream: Bool) -> Bool {
        guard let contract, contract.operation != nil else { return false }
        if isHeadRequest || !ProxiedReply.hasBody(status: head.status) || isEventStream || plan.resetAfterHead { return false }
        if let length = head.contentLength, length > ContractWatch.bodyByteLimit { return false }
        return true
    }

    /// Starts checking a held body off the loop; the delivery waits for it (`.checking`).
    func startChecking(_ head: UpstreamExchange.Head, body: [UInt8], context: DeliveryContext) -> ContractBodyCheck? {
        guard let contract, let operation = contract.operation else { return nil }
        return ContractBodyCheck.start(contract, operation: operation, head: head, body: body, waker: context.waker)
    }

    /// Checks the reply on its head alone, now (on the loop: no body to read).
    mutating func checkHead(_ head: UpstreamExchange.Head, into headers: inout HTTPHeaders, bodyLater: Bool) -> [DeliveryStep]? {
        guard let contract else { return nil }
        let found = contract.operation.map {
            contract.watch.check(status: head.status, headers: head.headers, body: [], of: $0, isHead: true)
        } ?? []
        if bodyLater { streamedBodyCheck = contract }
        return apply(found, head, into: &headers)
    }

    /// Reports what the reply broke (with the request's violations), adds `X-Understudy-Violations` to `headers`;
    /// with `failsOnViolations`, a reply that broke the document is replaced: the steps of its 502.
    mutating func apply(_ replyViolations: [ContractViolation], _ head: UpstreamExchange.Head, body: [UInt8]? = nil,
                        into headers: inout HTTPHeaders) -> [DeliveryStep]? {
        guard let contract else { return nil }
        self.contract = nil
        violations = contract.requestViolations + replyViolations
        contract.watch.record(contract.request, operation: contract.operation, status: head.status, violations: violations,
                              replyBody: body)
        if contract.watch.failsOnViolations, !replyViolations.isEmpty {
            return whole(ContractWatch.refusal(violations, status: 502, operation: contract.operation))
        }
        if !violations.isEmpty { headers.add(ContractWatch.violationsHeader, ContractWatch.headerValue(violations)) }
        return nil
    }

    /// The body of a reply checked on its head alone, once the upstream's whole reply has come, off the loop: what
    /// it broke reaches the report (the head, and the journal entry, are gone or going already).
    mutating func checkStreamedBody(_ reply: CapturedReply?) {
        guard let pending = streamedBodyCheck else { return }
        streamedBodyCheck = nil
        guard let reply, let operation = pending.operation else { return }
        let watch = pending.watch
        let request = pending.request
        DispatchQueue.global().async {
            let found = watch.check(status: reply.status, headers: reply.headers, body: reply.body, of: operation, isHead: false)
                .filter { $0.location != ["response", "status"] && $0.location.prefix(2) != ["response", "header"] }
            if !found.isEmpty {
                watch.record(request, operation: operation, status: reply.status, violations: found, counted: false,
                             replyBody: reply.body)
            }
        }
    }

    /// The document's answer in place of an upstream that lacks the operation (a 501, or a 404 the operation does
    /// not document), marked `X-Understudy-Mocked: openapi`; the upstream's reply is let go.
    mutating func mockedInstead(_ contract: ContractPlan, _ exchange: UpstreamExchange) -> DeliveryTurn {
        self.contract = nil
        var response = contract.watch.mocked(contract.request, seed: contract.watch.seed())
        violations = contract.requestViolations
        contract.watch.record(contract.request, operation: contract.operation, status: response.status,
                              violations: violations, mocked: true)
        if !violations.isEmpty { response.headers.add(ContractWatch.violationsHeader, ContractWatch.headerValue(violations)) }
        return endedEarly(exchange, exchange.head?.status ?? 0, whole(response))
    }

    /// A whole reply of the server's own in place of the upstream's: its head (under the reply's own headers), its
    /// body, the end.
    private func whole(_ response: HTTPResponse) -> [DeliveryStep] {
        var headers = ownHeaders
        for field in response.headers where ownHeaders[field.name] == nil { headers.add(field.name, field.value) }
        let body = response.body.bytesCopy
        return [.replyHead(status: response.status, headers: headers, contentLength: body.count),
                .body(isHeadRequest ? [] : body), .end]
    }
}
