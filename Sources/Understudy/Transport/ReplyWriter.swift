import CLibevent
import Foundation
import UnderstudyLocking

/// Carries out a `ReplyPlan` on evhttp: after its delay, whole, or by driving its `Delivery` for replies that
/// outlive the callback. Tells `completion` how each reply went, once. The only writer of replies; used on its
/// loop thread only.
///
/// `@unchecked Sendable`: only for an index build's wake-up (`hold(until:then:)`), which runs on the builder's
/// thread and touches nothing of the writer but `resumesAwaited` (a lock) and the loop's inbox; the work it submits
/// runs on the loop thread, as every other member does.
final class ReplyWriter: @unchecked Sendable {
    let loop: EventLoop
    private let completion: (ReplyPlan, ReplyOutcome) -> Void
    /// Replies that outlive their callback, keyed by identity.
    var tasks: [ObjectIdentifier: ConnectionTask] = [:]
    /// Replies waiting on a delay timer, keyed by identity.
    private var pending: [ObjectIdentifier: PendingReply] = [:]
    /// Requests waiting for an index their route needs (`Groundwork`), by ticket: what plans each again.
    var awaitingIndexes: [Int: () -> Void] = [:]
    var awaitedCount = 0
    /// Whether a finished index build may still hand its request back to the loop: closed before the loop stops,
    /// so no build outlives the loop it would wake.
    let resumesAwaited = Locked(true)
    /// The buffers canned replies' heads are written from.
    let cannedHead = CannedHead()
    /// Told of a connection a delivery took over from evhttp (`takeOver`): no request is read on it any more.
    var connectionTakenOver: (OpaquePointer) -> Void = { _ in }

    init(loop: EventLoop, completion: @escaping (ReplyPlan, ReplyOutcome) -> Void) {
        self.loop = loop
        self.completion = completion
    }

    /// Tells the pipeline how a reply went; once per reply.
    func report(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        completion(plan, outcome)
    }

    /// Replies still held: delayed, outliving their callback, or waiting for an index.
    var heldReplies: Int { tasks.count + pending.count + awaitingIndexes.count }

    /// Writes `plan` on `request`, whole or through `delivery`: now, or once its delay (counted from the request's
    /// first byte) has passed.
    func carryOut(_ plan: ReplyPlan, _ delivery: (any Delivery)?, on request: OpaquePointer) {
        guard plan.delayMilliseconds > 0 else {
            deliver(plan, delivery, to: request)
            return
        }
        hold(plan, delivery, request: request)
    }

    /// Puts a planned reply on the wire, now.
    private func deliver(_ plan: ReplyPlan, _ delivery: (any Delivery)?, to request: OpaquePointer) {
        if let delivery {
            start(delivery, plan, on: request)
        } else {
            send(plan, to: request)
        }
    }

    /// Queues a whole reply on the connection; static bodies go out by reference, without a copy.
    private func send(_ plan: ReplyPlan, to request: OpaquePointer) {
        if let canned = plan.canned {
            send(canned, plan, to: request)
            return
        }
        let response = plan.response
        let isHead = plan.request.method == "HEAD"
        if let headers = evhttp_request_get_output_headers(request) {
            for field in response.headers {
                evhttp_add_header(headers, field.name, field.value)
            }
            // evhttp leaves Content-Length off a HEAD reply; HTTP says it should be the GET body's length.
            if isHead, response.status != 204, response.status != 304 {
                evhttp_add_header(headers, "Content-Length", String(response.body.count))
            }
        }
        if !isHead, let output = evhttp_request_get_output_buffer(request) {
            switch response.body {
            case .empty:
                break
            case .bytes(let bytes):
                _ = bytes.withUnsafeBytes { evbuffer_add(output, $0.baseAddress, $0.count) }
            case .shared(let shared):
                ReplyWriter.addReference(to: shared, in: output)
            }
        }
        evhttp_send_reply(request, Int32(response.status), ReasonPhrase.cString(forStatus: response.status), nil)
        let now = EventLoop.monotonicMilliseconds()
        report(plan, ReplyOutcome(status: response.status, bytesWritten: isHead ? 0 : response.body.count,
                                      firstByteAt: now, finishedAt: now))
    }

    /// Sends a canned reply with the request's rate-limit counters in its prebuilt head.
    private func send(_ reply: CannedReply, _ plan: ReplyPlan, to request: OpaquePointer) {
        if let output = evhttp_request_get_output_buffer(request) {
            ReplyWriter.addReference(to: reply.body, in: output)
        }
        // Without a connection (the client left while a delay held the reply) evhttp frees the request inside
        // evhttp_send_reply, so the head must not be linked into it; it is sent nowhere anyway.
        if evhttp_request_get_connection(request) != nil, let headers = evhttp_request_get_output_headers(request) {
            cannedHead.send(reply, on: request, headers: headers, remaining: plan.rateLimit.remaining,
                            resetsAt: plan.rateLimit.resetsAt)
        } else {
            evhttp_send_reply(request, Int32(reply.status), reply.reasonPhrase, nil)
        }
        let now = EventLoop.monotonicMilliseconds()
        report(plan, ReplyOutcome(status: reply.status, bytesWritten: reply.body.count, firstByteAt: now,
                                      finishedAt: now))
    }

    /// Appends `shared` to an output buffer without copying it; the buffer keeps it alive until it is written.
    static func addReference(to shared: SharedBytes, in output: OpaquePointer) {
        evbuffer_add_reference(output, shared.base, shared.count, { _, _, retained in
            guard let retained else { return }
            Unmanaged<SharedBytes>.fromOpaque(retained).release()
        }, Unmanaged.passRetained(shared).toOpaque())
    }

    /// Holds the reply on a libevent timer (the loop keeps serving meanwhile); the delay runs from the request's
    /// first byte, not from now.
    private func hold(_ plan: ReplyPlan, _ delivery: (any Delivery)?, request: OpaquePointer) {
        let reply = PendingReply(request: request, plan: plan, delivery: delivery)
        pending[ObjectIdentifier(reply)] = reply
        reply.timer = loop.makeTimer(repeating: false, argument: Unmanaged.passUnretained(reply).toOpaque()) { _, _, argument in
            guard let argument else { return }
            let reply = Unmanaged<PendingReply>.fromOpaque(argument).takeUnretainedValue()
            reply.writer?.release(reply)
        }
        reply.writer = self
        let elapsed = EventLoop.monotonicMilliseconds() - plan.request.startedAt
        let remaining = max(0, Double(plan.delayMilliseconds) - elapsed)
        loop.arm(reply.timer, inMicroseconds: Int((remaining * 1_000).rounded(.up)))
    }

    /// Sends a held reply now and forgets it.
    private func release(_ reply: PendingReply) {
        guard pending.removeValue(forKey: ObjectIdentifier(reply)) != nil else { return }
        if let timer = reply.timer {
            event_free(timer)
            reply.timer = nil
        }
        reply.writer = nil
        deliver(reply.plan, reply.delivery, to: reply.request)
    }

    /// On shutdown, every held reply goes out at once rather than being dropped.
    func flushPendingReplies() {
        for reply in Array(pending.values) { release(reply) }
    }
}
