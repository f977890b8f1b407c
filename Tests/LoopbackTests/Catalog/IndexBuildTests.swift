import Foundation
import Testing
@testable import Understudy
import UnderstudyLocking
import UnderstudyTestSupport

/// A first search, filter or sort of a collection waits for its index, built off the event loop, while the loop
/// serves every other request: the builds are held until the test lets them run, so no timing is involved.
@Suite struct IndexBuildTests {
    static let notes = #"""
    [{"id": 1, "title": "Buy milk"}, {"id": 2, "title": "Call the plumber"}, {"id": 3, "title": "Answer mail"}]
    """#

    @Test func theLoopServesOthersWhileAFirstSearchFilterAndSortWait() async throws {
        // Builds are held here until the test lets them go (no thread blocks meanwhile: a blocked worker could starve
        // the dispatch threads URLSession needs).
        let held = Locked<[@Sendable () -> Void]>([])
        let started = Locked(0)
        let builds = IndexBuilds { build in
            started.withLock { $0 += 1 }
            held.withLock { $0.append(build) }
        }
        let release: @Sendable () -> Void = {
            for build in held.withLock({ held in defer { held.removeAll() }; return held }) {
                Thread(block: build).start()  // as `IndexBuilds.background` does: not a global-queue worker
            }
        }
        let loaded = try FixtureLoader.collection(named: "notes", from: Array(IndexBuildTests.notes.utf8), file: "notes.json")
        let notes = RecordCollection(name: "notes", records: loaded.records, builds: builds)
        let catalog = Catalog(products: Catalog.standard.products.records, users: Catalog.standard.users, collections: ["notes": notes])
        try await withServer({ $0.catalog = catalog }) { server, _ in
            // The held requests wait for as long as the test takes to let them go, which a full suite on two cores
            // can stretch past the usual 10 s.
            let client = HTTPTestClient(server: server, timeoutSeconds: 120)
            // Whatever fails first, no build is left held.
            defer { release() }
            async let sorted = client.send("/notes?sortBy=title&select=title")
            async let found = client.send("/notes/search?q=MAIL")
            async let filtered = client.send("/notes/filter?key=title&value=Buy%20milk")
            #expect(await waitUntil(within: .seconds(120)) { started.withLock { $0 } == 3 })

            // Both wait for their index; the loop answers everything else meanwhile.
            let one = try await client.send("/notes/2")
            #expect(one.text == #"{"id":2,"title":"Call the plumber"}"#)
            let page = try await client.send("/notes?limit=1&select=title")
            #expect(page.text == #"{"notes":[{"id":1,"title":"Buy milk"}],"total":3,"skip":0,"limit":1}"#)

            release()
            #expect(try await sorted.text == #"{"notes":[{"id":3,"title":"Answer mail"},{"id":1,"title":"Buy milk"},"#
                    + #"{"id":2,"title":"Call the plumber"}],"total":3,"skip":0,"limit":3}"#)
            #expect(try await found.text == #"{"notes":[{"id":3,"title":"Answer mail"}],"total":1,"skip":0,"limit":1}"#)
            #expect(try await filtered.text == #"{"notes":[{"id":1,"title":"Buy milk"}],"total":1,"skip":0,"limit":1}"#)

            // Kept: later searches and sorts by that field are answered at once, with no build.
            let descending = try await client.send("/notes?sortBy=title&order=desc&select=id")
            #expect(descending.text == #"{"notes":[{"id":2},{"id":1},{"id":3}],"total":3,"skip":0,"limit":3}"#)
            #expect(try await client.send("/notes/search?q=milk").status == 200)
            let plumber = try await client.send("/notes/filter?key=title&value=Call%20the%20plumber&select=id")
            #expect(plumber.text == #"{"notes":[{"id":2}],"total":1,"skip":0,"limit":1}"#)
            #expect(started.withLock { $0 } == 3)
        }
    }
}
