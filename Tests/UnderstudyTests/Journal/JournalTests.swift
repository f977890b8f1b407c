import Testing
@testable import Understudy

@Suite struct JournalTests {
    private func entry(_ journal: Journal, path: String, session: String? = nil, method: String = "GET") -> JournalEntry {
        JournalEntry(id: journal.nextID(), time: 0, session: session, method: method, path: path, query: "",
                     headers: ["Authorization": "Bearer t"], bodySize: 0, rule: nil, fault: nil, status: 200,
                     bytesWritten: 10, firstByteMilliseconds: 1, durationMilliseconds: 1)
    }

    @Test func keepsTheNewestWithinItsCapacity() {
        let journal = Journal(capacity: 3)
        for index in 1...5 { journal.record(entry(journal, path: "/\(index)")) }
        #expect(journal.count == 3)
        #expect(journal.entries().map(\.path) == ["/3", "/4", "/5"])
        #expect(journal.entries(limit: 2).map(\.path) == ["/4", "/5"])
    }

    @Test func filtersAndClearsBySession() {
        let journal = Journal(capacity: 10)
        journal.record(entry(journal, path: "/a", session: "s"))
        journal.record(entry(journal, path: "/b", session: "t", method: "POST"))
        journal.record(entry(journal, path: "/a"))
        #expect(journal.entries(session: "s").count == 1)
        #expect(journal.entries(path: "/a").count == 2)
        #expect(journal.entries(method: "post").map(\.path) == ["/b"])
        #expect(journal.entries(path: "/a").first?.authorization == "Bearer t")
        #expect(journal.clear(session: "s") == 1)
        #expect(journal.count == 2)
        #expect(journal.clear() == 2)
    }
}

@Suite struct JournalOrderTests {
    @Test func entriesComeInArrivalOrderEvenWhenFinishedLater() {
        let journal = Journal(capacity: 10)
        func entry(_ path: String, arrived: Double) -> JournalEntry {
            JournalEntry(id: journal.nextID(), time: arrived, session: nil, method: "GET", path: path, query: "",
                         headers: [:], bodySize: 0, rule: nil, fault: nil, status: 200, bytesWritten: 0,
                         firstByteMilliseconds: nil, durationMilliseconds: 0)
        }
        journal.record(entry("/products/1", arrived: 2))
        journal.record(entry("/products/stream", arrived: 1))
        #expect(journal.entries().map(\.path) == ["/products/stream", "/products/1"])
        #expect(journal.entries(limit: 1).map(\.path) == ["/products/1"])
    }
}
