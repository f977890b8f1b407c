import Foundation

/// A weak `ETag` on every 200 with a body, and `304 Not Modified` for a GET or HEAD whose `If-None-Match` holds
/// it, as Express does for DummyJSON.
struct ConditionalGETMiddleware: ReplyMiddleware {
    func prepare(_ plan: inout ReplyDraft) {
        guard plan.response.status == 200 else { return }
        // The catalogue's tags are computed once, the rest here. A faulted reply is not the resource, so it is
        // never tagged (nor answered with 304).
        if plan.response.etag == nil, plan.response.headers[FaultHeaders.applied] == nil,
           case .bytes(let bytes) = plan.response.body, !bytes.isEmpty {
            plan.response.etag = HTTPResponse.weakETag(for: bytes)
        }
        guard let etag = plan.response.etag else { return }
        plan.response.headers.add("ETag", etag)
        let method = plan.request.method
        if method == "GET" || method == "HEAD", plan.request.hasOriginOrCondition,
           let condition = plan.request.headers["If-None-Match"], ConditionalGETMiddleware.matches(condition, etag: etag) {
            plan.response.status = 304
            plan.response.body = .empty
            plan.response.headers.remove("Content-Type")
        }
    }

    /// `If-None-Match` compares weakly: a list of tags, or `*`.
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || "W/" + tag == etag
        }
    }
}
