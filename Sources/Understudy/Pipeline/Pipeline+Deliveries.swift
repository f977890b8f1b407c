extension Pipeline {
    /// How the writer is to carry out `plan`, built from its final response once the middleware is done with it
    /// (a 304 has no body left to truncate); nil: whole, in one call.
    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String? = nil) -> (any Delivery)? {
        switch plan.delivery {
        case .whole:
            return nil
        case .empty:
            return BrokenConnection(.empty)
        case .reset(let afterHeaders):
            return BrokenConnection(.reset(afterHeaders: afterHeaders, contentLength: plan.response.body.count))
        case .hang:
            return BrokenConnection(.hang)
        case .garbage(let bytes):
            return BrokenConnection(.garbage(bytes))
        case .truncated(let count):
            return TruncatedBody(body: plan.response.body.bytesCopy, cut: .bytes(count))
        case .truncatedChunked:
            return TruncatedBody(body: plan.response.body.bytesCopy, cut: .chunked)
        case .paced(let pacing, let stall, let seed):
            let body = plan.response.body.bytesCopy
            let pauses = stall.map { RatePacer.pauses(length: body.count, range: $0, seed: seed) } ?? []
            return PacedBody(body: body, pacing: pacing, pauses: pauses)
        case .stream(let streamPlan):
            return EventStream(plan: streamPlan, source: streams)
        case .feed(let request):
            return FeedDelivery(feed: feed, request: request, maximumUnflushedBytes: streams.maximumUnflushedBytes)
        case .proxy(let proxyPlan):
            return forwardedReply(plan, proxyPlan, clientAddress: clientAddress())
        }
    }
}

extension HTTPResponse.Body {
    /// The body's bytes, copied.
    var bytesCopy: [UInt8] {
        switch self {
        case .empty: []
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        }
    }
}
