import Foundation
import Testing
import UnderstudyJSON
@testable import Understudy

/// The feed's bookkeeping without sockets: what a subscriber gets first, what it gets after, when it ends, and that
/// one whose sink refuses is forgotten.
@Suite struct LiveFeedBookkeepingTests {
    final class Sink: FeedSink {
        var text = ""
        var accepting = true
        var ended = false

        func send(_ bytes: [UInt8]) -> Bool {
            guard accepting else { return false }
            text += String(decoding: bytes, as: UTF8.self)
            return true
        }

        func end() { ended = true }
    }

    private func setUp() -> (LiveFeed, Journal, FaultController) {
        let journal = Journal(capacity: 1_000)
        let faults = FaultController(seed: 1, journal: journal)
        return (LiveFeed(faults: faults, journal: journal), journal, faults)
    }

    private func record(_ journal: Journal, _ path: String) {
        journal.record(JournalEntry(id: journal.nextID(), time: 0, session: nil, method: "GET", path: path, query: "",
                                    headers: [:], bodySize: 0, rule: nil, fault: nil, status: 200, bytesWritten: 0,
                                    firstByteMilliseconds: nil, durationMilliseconds: 1))
    }

    @Test func aSubscriberGetsRetryAndStateFirst() {
        let (feed, _, _) = setUp()
        let sink = Sink()
        feed.subscribe(sink, FeedRequest(), now: 0)
        #expect(sink.text == "retry: 2000\n\nevent: state\ndata: {\"rules\":[],\"offline\":{\"active\":false,\"secondsLeft\":0},\"seed\":1,\"sessions\":[]}\n\n")
        #expect(feed.subscriberCount == 1)
    }

    @Test func requestsJournaledAfterSubscribingAreSentOnceEach() {
        let (feed, journal, _) = setUp()
        record(journal, "/before")
        let sink = Sink()
        feed.subscribe(sink, FeedRequest(), now: 0)
        record(journal, "/a")
        record(journal, "/b")
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 1_000)
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 1_001)
        #expect(!sink.text.contains("/before"))
        #expect(sink.text.components(separatedBy: "event: request\n").count == 3)
        #expect(sink.text.contains("id: 2\nevent: request\ndata: {\"id\":2,"))
        #expect(sink.text.contains("id: 3\nevent: request\ndata: {\"id\":3,"))
    }

    @Test func resumeReplaysTheJournalAfterTheID() {
        let (feed, journal, _) = setUp()
        for path in ["/1", "/2", "/3"] { record(journal, path) }
        let sink = Sink()
        feed.subscribe(sink, FeedRequest(resumeAfter: 1), now: 0)
        #expect(!sink.text.contains("\"path\":\"/1\""))
        #expect(sink.text.contains("\"path\":\"/2\"") && sink.text.contains("\"path\":\"/3\""))
    }

    @Test func countEndsTheFeedAndForgetsTheSubscriber() {
        let (feed, journal, _) = setUp()
        let sink = Sink()
        feed.subscribe(sink, FeedRequest(limit: 2), now: 0)
        #expect(!sink.ended && feed.subscriberCount == 1)
        record(journal, "/a")
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 1_000)
        #expect(sink.ended)
        #expect(feed.subscriberCount == 0)
    }

    @Test func aSinkThatRefusesIsDroppedAndTheOthersGoOn() {
        let (feed, journal, _) = setUp()
        let slow = Sink()
        let fast = Sink()
        feed.subscribe(slow, FeedRequest(), now: 0)
        feed.subscribe(fast, FeedRequest(), now: 0)
        slow.accepting = false
        record(journal, "/a")
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 1_000)
        #expect(feed.subscriberCount == 1)
        #expect(fast.text.contains("\"path\":\"/a\""))
        feed.unsubscribe(fast)
        #expect(feed.subscriberCount == 0)
    }

    @Test func aBusyServerIsBatchedAndTheExcessCounted() {
        let (feed, journal, _) = setUp()
        let sink = Sink()
        feed.subscribe(sink, FeedRequest(), now: 0)
        record(journal, "/first")
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 1_000)
        #expect(sink.text.contains("\"path\":\"/first\""), "a quiet server's request goes out at once")
        for index in 0..<75 { record(journal, "/\(index)") }
        feed.completed(journaled: true, stateMayHaveChanged: false, now: 1_010)
        #expect(!sink.text.contains("\"path\":\"/74\""), "the rest waits for the next flush")
        feed.tick(now: 1_000 + Double(LiveFeed.flushMilliseconds))
        #expect(sink.text.contains("event: skipped\ndata: {\"requests\":50,\"errors\":0,\"through\":51}\n\n"))
        #expect(sink.text.components(separatedBy: "event: request\n").count == 1 + 1 + LiveFeed.maximumRequestsPerFlush)
        #expect(!sink.text.contains("\"path\":\"/49\"") && sink.text.contains("\"path\":\"/50\"") && sink.text.contains("\"path\":\"/74\""))
    }

    @Test func stateChangesAreSentOnTheNextPoll() throws {
        let (feed, _, faults) = setUp()
        let sink = Sink()
        feed.subscribe(sink, FeedRequest(), now: 0)
        try faults.add(FaultRule(fault: "status=503"))
        feed.tick(now: 50)
        #expect(!sink.text.contains("rule-added"), "not before the poll interval")
        feed.tick(now: Double(LiveFeed.pollMilliseconds) + 1)
        #expect(sink.text.contains("event: rule-added\ndata: {\"id\":\"rule-1\","))
        feed.tick(now: LiveFeed.heartbeatMilliseconds)
        #expect(sink.text.hasSuffix(": heartbeat\n\n"))
    }
}

/// The state comparison that turns snapshots into events.
@Suite struct FeedStateTests {
    private func rule(_ id: String, fired: Int) -> FaultRuleStatus {
        FaultRuleStatus(id: id, rule: FaultRule(fault: "status=500", times: 3), matched: fired, fired: fired)
    }

    @Test func rulesAddedFiredAndRemoved() {
        let before = FeedState(rules: [rule("rule-1", fired: 0), rule("rule-2", fired: 0)])
        let after = FeedState(rules: [rule("rule-2", fired: 1), rule("rule-3", fired: 0)])
        #expect(after.changes(since: before).map(\.name) == ["rule-removed", "rule-fired", "rule-added"])
        #expect(after.changes(since: after).isEmpty)
    }

    @Test func offlineSeedAndSessions() {
        let before = FeedState()
        let after = FeedState(offlineMillisecondsLeft: 2_340, seed: 5, sessions: [.init(id: "a", seed: 2)])
        let events = after.changes(since: before)
        #expect(events.map(\.name) == ["offline", "seed", "sessions"])
        #expect(String(decoding: events[0].bytes, as: UTF8.self) == "event: offline\ndata: {\"active\":true,\"secondsLeft\":2.4}\n\n")
        #expect(FeedState(offlineMillisecondsLeft: 1_000).changes(since: FeedState(offlineMillisecondsLeft: 2_000)).isEmpty,
                "the countdown itself is the page's")
    }

    @Test func requestEventsCarryTheJournalID() {
        let event = FeedEvent(name: "request", id: 42, data: .object(JSONObject()))
        #expect(String(decoding: event.bytes, as: UTF8.self) == "id: 42\nevent: request\ndata: {}\n\n")
    }
}

/// The scenarios embedded in the binary are the files in fixtures/scenarios, and all of them parse.
@Suite struct ShippedScenarioTests {
    @Test func embeddedScenariosMatchTheFiles() throws {
        let directory = #filePath.split(separator: "/").dropLast(4).joined(separator: "/")
        let files = try FileManager.default.contentsOfDirectory(atPath: "/\(directory)/fixtures/scenarios")
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(Scenario.shipped.map { $0.name + ".json" } == files)
        for (name, json) in Scenario.shipped {
            let file = try String(contentsOfFile: "/\(directory)/fixtures/scenarios/\(name).json", encoding: .utf8)
            #expect(file.trimmingCharacters(in: .newlines) == json, "\(name).json differs from Scenario+Shipped.swift")
            #expect(Scenario.shipped(named: name) != nil)
        }
        let spec = try String(contentsOfFile: "/\(directory)/openapi/openapi.yaml", encoding: .utf8)
        let names = Scenario.shipped.map(\.name).joined(separator: ", ")
        #expect(spec.contains("enum: [\(names)]"), "loadScenario's name enum in openapi.yaml lists the shipped scenarios")
    }
}
