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

    @Test func totalCountsMatchesBeforeTheLimit() {
        let journal = Journal(capacity: 10)
        for index in 1...4 { journal.record(entry(journal, path: index == 4 ? "/other" : "/a")) }
        let found = journal.matching(session: nil, path: "/a", method: nil, limit: 1)
        #expect(found.entries.count == 1)
        #expect(found.total == 3)
    }

    /// `path` is a glob, as in a rule's match: `*` any run of characters, `?` one; a plain path matches only itself.
    @Test func thePathFilterIsAGlob() {
        let journal = Journal(capacity: 10)
        for path in ["/products/1", "/products/12", "/products/search", "/products", "/auth/products/1"] {
            journal.record(entry(journal, path: path))
        }
        #expect(journal.entries(path: "/products/*").map(\.path) == ["/products/1", "/products/12", "/products/search"])
        #expect(journal.entries(path: "/products/?").map(\.path) == ["/products/1"])
        #expect(journal.entries(path: "*/products/1").map(\.path) == ["/products/1", "/auth/products/1"])
        #expect(journal.entries(path: "/products").map(\.path) == ["/products"])
        #expect(journal.matching(session: nil, path: "/products*", method: nil, limit: 1).total == 4)
    }

    /// 10,000 requests with 60 KiB of headers each would keep 600 MB; values are cut and bytes are bounded.
    @Test func bigHeadersAreCutAndTheJournalIsBoundedByBytes() {
        let journal = Journal(capacity: 10_000, byteLimit: 1 << 20)
        let big = String(repeating: "é", count: 3_000)  // 6,000 bytes
        for index in 0..<1_000 {
            let headers: HTTPHeaders = HTTPHeaders((0..<10).map { (name: "X-Big-\($0)", value: big) })
            journal.record(JournalEntry(id: journal.nextID(), time: Double(index), session: nil, method: "GET",
                                        path: "/\(index)", query: "", headers: headers, bodySize: 0, rule: nil,
                                        fault: nil, status: 200, bytesWritten: 0, firstByteMilliseconds: nil,
                                        durationMilliseconds: 0))
        }
        #expect(journal.byteCount <= 1 << 20)
        #expect(journal.count < 1_000 && journal.count > 10)
        let kept = journal.entries()
        #expect(kept.last?.path == "/999")
        let value = kept.last?.headers["X-Big-0"] ?? ""
        #expect(value.utf8.count <= Journal.maximumHeaderValueBytes + 3)
        #expect(value.hasSuffix("…"))
        #expect(value.dropLast().allSatisfy { $0 == "é" })
        #expect(journal.clear() == kept.count)
        #expect(journal.byteCount == 0)
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
