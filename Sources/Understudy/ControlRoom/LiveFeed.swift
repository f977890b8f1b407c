import UnderstudyJSON
/// The control room's live feed: every subscriber of `GET /__understudy/events` gets the current state, the
/// requests it missed (from `Last-Event-ID`), then each request as the server finishes with it and each change
/// of rules, offline, seed and sessions. Lives on the loop thread.
///
/// Requests are pushed by `LiveFeedMiddleware` as they complete; with no subscriber it returns after one check, so
/// the hot path pays nothing. Everything else changes on any thread (`server.faults` is thread-safe), so instead
/// of every change being marshalled onto the loop, the feed compares a `FeedState` snapshot every
/// `pollMilliseconds` while someone is watching, and after every admin request so a click shows at once.
///
/// Under load the feed batches: it sends at most once per `flushMilliseconds` (a quiet server's request goes out
/// at once; the rest wait for the next flush, one write per subscriber), and at most `maximumRequestsPerFlush`
/// requests per flush, the newest, after a `skipped` event counting the others (and their errors) for the
/// page's chart. So a viewer costs the server a bounded amount of work however busy it is: measured with `wrk`,
/// following the feed of a server at full load without the cap cost half its throughput (one encoded entry and
/// one chunk write per request).
///
/// A subscriber that stops reading is dropped by its sink once its backlog passes the server's stream limit
/// (`Configuration.maximumStreamBacklogBytes`), as a slow `/products/stream` reader is.
final class LiveFeed {
    private struct Subscriber {
        let sink: any FeedSink
        /// Events still to send before the feed ends for it (nil: no end).
        var remaining: Int?
    }

    /// How often the state is compared while the feed has subscribers.
    static let pollMilliseconds = 200
    /// At most one write to each subscriber this often; also the subscribers' timer interval.
    static let flushMilliseconds = 50
    /// At most this many request events per flush (500 a second): more than a person can read or the page keeps,
    /// far fewer than a benchmark sends.
    static let maximumRequestsPerFlush = 25
    /// A comment line this often keeps a quiet feed's connection from looking idle.
    static let heartbeatMilliseconds = 15_000.0
    /// The reconnection time the feed announces.
    static let retryMilliseconds = 2_000

    private let faults: FaultController
    private let journal: Journal
    /// How long the server stays offline; set when the transport exists.
    var offlineMillisecondsLeft: () -> Double = { 0 }
    private var subscribers: [Subscriber] = []
    /// The newest journal id sent to every subscriber.
    private var cursor = 0
    private var state = FeedState()
    private var lastPoll = -Double.infinity
    private var lastHeartbeat = 0.0
    private var lastFlush = -Double.infinity
    /// Requests were journaled, or the state may have changed, since the last flush.
    private var journalPending = false
    private var statePending = false

    init(faults: FaultController, journal: Journal) {
        self.faults = faults
        self.journal = journal
    }

    /// How many are watching; the middleware's whole cost when nobody is.
    var subscriberCount: Int { subscribers.count }

    /// Adds a subscriber: the `retry:` field, the state, the requests after `resumeAfter`, then live events.
    func subscribe(_ sink: any FeedSink, _ request: FeedRequest, now: Double) {
        if subscribers.isEmpty {
            // Nobody was watching, so nothing was sent past the journal's present.
            cursor = journal.newestID
            lastHeartbeat = now
        } else {
            // What the others have pending goes to them first: the newcomer's state is taken after it.
            statePending = true
            flush(now: now)
        }
        state = currentState()
        lastPoll = now
        var subscriber = Subscriber(sink: sink, remaining: request.limit)
        guard sink.send(FeedEvent.retry(milliseconds: LiveFeed.retryMilliseconds)),
              deliver(state.snapshotEvent.bytes, to: &subscriber) else { return }
        if let resumeAfter = request.resumeAfter {
            for entry in journal.entries(after: resumeAfter, limit: FeedRequest.maximumReplay) where entry.id <= cursor {
                guard deliver(FeedEvent.request(entry).bytes, to: &subscriber) else { return }
            }
        }
        subscribers.append(subscriber)
    }

    /// Forgets a subscriber whose reply is over (it ended, left, or was dropped).
    func unsubscribe(_ sink: any FeedSink) {
        subscribers.removeAll { $0.sink === sink }
    }

    /// A reply completed (`LiveFeedMiddleware`): a journaled request, and/or one that may have changed the state (an
    /// admin request, a rule firing). Sent now if nothing was sent in the last `flushMilliseconds`, else at the next
    /// flush.
    func completed(journaled: Bool, stateMayHaveChanged: Bool, now: Double) {
        guard !subscribers.isEmpty else { return }
        journalPending = journalPending || journaled
        statePending = statePending || stateMayHaveChanged
        if now - lastFlush >= Double(LiveFeed.flushMilliseconds) { flush(now: now) }
    }

    /// Runs on each subscriber's timer (every `flushMilliseconds`): sends what is pending, compares the state every
    /// `pollMilliseconds`, and sends a heartbeat when the feed has been quiet. Cheap when called more often.
    func tick(now: Double) {
        guard !subscribers.isEmpty else { return }
        if now - lastPoll >= Double(LiveFeed.pollMilliseconds) - 1 {
            lastPoll = now
            statePending = true
        }
        if (journalPending || statePending), now - lastFlush >= Double(LiveFeed.flushMilliseconds) - 1 {
            flush(now: now)
        }
        if now - lastHeartbeat >= LiveFeed.heartbeatMilliseconds {
            lastHeartbeat = now
            for subscriber in subscribers { _ = subscriber.sink.send(FeedEvent.heartbeat) }
        }
    }

    /// Sends the requests journaled since the last flush (the newest `maximumRequestsPerFlush`, after a `skipped`
    /// count of the rest), then what changed in the state.
    private func flush(now: Double) {
        lastFlush = now
        var events: [[UInt8]] = []
        if journalPending {
            journalPending = false
            let recent = journal.newest(after: cursor, limit: LiveFeed.maximumRequestsPerFlush)
            if let newest = recent.entries.last {
                cursor = newest.id
                if recent.older > 0 {
                    events.append(FeedEvent(name: "skipped", data: .object(JSONObject([
                        .init(key: "requests", value: .number(JSONNumber(recent.older))),
                        .init(key: "errors", value: .number(JSONNumber(recent.olderErrors))),
                        .init(key: "through", value: .number(JSONNumber(recent.olderThrough))),
                    ]))).bytes)
                }
                events += recent.entries.map { FeedEvent.request($0).bytes }
            }
        }
        if statePending {
            statePending = false
            let now = currentState()
            if now != state {
                events += now.changes(since: state).map(\.bytes)
                state = now
            }
        }
        if !events.isEmpty { broadcast(events) }
    }

    private func currentState() -> FeedState {
        FeedState(rules: faults.rules, offlineMillisecondsLeft: offlineMillisecondsLeft(), seed: faults.seed,
                  sessions: faults.sessions.filter { !$0.id.isEmpty }.map { .init(id: $0.id, seed: $0.seed) })
    }

    private func broadcast(_ events: [[UInt8]]) {
        // A sink may end or drop its subscriber while this runs, which removes it from `subscribers`; the loop
        // checks after each one that the subscriber it worked on is still where it was.
        let joined = events.count == 1 ? events[0] : events.flatMap { $0 }
        var index = 0
        while index < subscribers.count {
            var subscriber = subscribers[index]
            let sink = subscriber.sink
            // One write for the whole batch, unless the subscriber counts its events (`count`).
            let kept = subscriber.remaining == nil ? sink.send(joined)
                : events.allSatisfy { deliver($0, to: &subscriber) }
            guard index < subscribers.count, subscribers[index].sink === sink else { continue }
            if kept {
                subscribers[index] = subscriber
                index += 1
            } else {
                subscribers.remove(at: index)
            }
        }
    }

    /// Sends one event; false once the subscriber is gone or has had its `count`.
    private func deliver(_ bytes: [UInt8], to subscriber: inout Subscriber) -> Bool {
        guard subscriber.sink.send(bytes) else { return false }
        guard let remaining = subscriber.remaining else { return true }
        subscriber.remaining = remaining - 1
        guard remaining - 1 <= 0 else { return true }
        subscriber.sink.end()
        return false
    }
}
