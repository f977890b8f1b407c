import UnderstudyOpenAPI

/// What a forwarded exchange is held to (`--upstream URL --spec FILE`): the watch, the request, the operation it
/// reaches (nil: none, itself a violation) and what is wrong with the request already.
struct ContractPlan {
    let watch: ContractWatch
    let request: HTTPRequest
    let operation: OpenAPIOperation?
    let requestViolations: [ContractViolation]
}

extension ProxiedReply {
    /// Whether the reply is held until its body has come, so the body is checked before the head (which carries
    /// `X-Understudy-Violations`) goes out. The bytes are the upstream's either way. Not held: a reply to an
    /// undocumented operation, to a HEAD, without a body, an event stream (checked as it starts), one reset after
    /// its head, or a body over `ContractWatch.bodyByteLimit`; those are checked on their head alone.
    func holdsForContract(_ head: UpstreamExchange.Head, isEventStream: Bool) -> Bool {
        guard let contract, contract.operation != nil else { return false }
        if isHeadRequest || !ProxiedReply.hasBody(status: head.status) || isEventStream || plan.resetAfterHead { return false }
        if let length = head.contentLength, length > ContractWatch.bodyByteLimit { return false }
        return true
    }

    /// Checks the reply (its body too when given), reports what it broke, and adds `X-Understudy-Violations` to
    /// `headers`; with `failsOnViolations`, a reply that broke the document is replaced: the steps of its 502.
    mutating func checkContract(_ head: UpstreamExchange.Head, body: [UInt8]?, into headers: inout HTTPHeaders) -> [DeliveryStep]? {
        guard let contract else { return nil }
        self.contract = nil
        var replyViolations: [ContractViolation] = []
        if let operation = contract.operation {
            replyViolations = contract.watch.check(status: head.status, headers: head.headers, body: body ?? [],
                                                   of: operation, isHead: body == nil)
        }
        violations = contract.requestViolations + replyViolations
        contract.watch.record(contract.request, operation: contract.operation, status: head.status, violations: violations)
        if contract.watch.failsOnViolations, !replyViolations.isEmpty {
            return whole(ContractWatch.refusal(violations, status: 502, operation: contract.operation))
        }
        if !violations.isEmpty { headers.add(ContractWatch.violationsHeader, ContractWatch.headerValue(violations)) }
        return nil
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
