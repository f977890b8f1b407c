/// The control room's live feed: every subscriber of `GET /__understudy/events` gets the current state, the
/// requests it missed (from `Last-Event-ID`), then each request as the server finishes with it and each change
/// of rules, offline, seed and sessions. Lives on the loop thread.
///
/// Requests are pushed by `LiveFeedMiddleware` as they complete; with no subscriber it returns after one check, so
/// the hot path pays nothing. Everything else changes on any thread (`server.faults` is thread-safe), so instead
/// of every change being marshalled onto the loop, the feed compares a `FeedState` snapshot every
/// `pollMilliseconds` while someone is watching, and after every admin request so a click shows at once.
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

    /// Sends the requests journaled since the last call; `LiveFeedMiddleware` calls it as each reply completes.
    func journalAdvanced() {
        guard !subscribers.isEmpty else { return }
        let entries = journal.entries(after: cursor, limit: FeedRequest.maximumReplay)
        guard let newest = entries.last else { return }
        cursor = newest.id
        for entry in entries { broadcast(FeedEvent.request(entry).bytes) }
    }

    /// Runs on each subscriber's timer: compares the state every `pollMilliseconds` and sends a heartbeat when
    /// the feed has been quiet. Cheap when called more often than that.
    func tick(now: Double) {
        guard !subscribers.isEmpty else { return }
        if now - lastPoll >= Double(LiveFeed.pollMilliseconds) - 1 {
            lastPoll = now
            stateMayHaveChanged()
        }
        if now - lastHeartbeat >= LiveFeed.heartbeatMilliseconds {
            lastHeartbeat = now
            for subscriber in subscribers { _ = subscriber.sink.send(FeedEvent.heartbeat) }
        }
    }

    /// Compares the state now and sends what changed.
    func stateMayHaveChanged() {
        guard !subscribers.isEmpty else { return }
        let now = currentState()
        guard now != state else { return }
        let events = now.changes(since: state)
        state = now
        for event in events { broadcast(event.bytes) }
    }

    private func currentState() -> FeedState {
        FeedState(rules: faults.rules, offlineMillisecondsLeft: offlineMillisecondsLeft(), seed: faults.seed,
                  sessions: faults.sessions.filter { !$0.id.isEmpty }.map { .init(id: $0.id, seed: $0.seed) })
    }

    private func broadcast(_ bytes: [UInt8]) {
        // A sink may end or drop its subscriber while this runs, which removes it from `subscribers`; the loop
        // works on its own copy, and writes to a subscriber already gone are refused by its sink.
        var index = 0
        while index < subscribers.count {
            var subscriber = subscribers[index]
            let sink = subscriber.sink
            let kept = deliver(bytes, to: &subscriber)
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
