import Foundation
import Testing
@testable import Understudy
import UnderstudyJSON

/// The collection engine without a socket: loading your own collection, its errors, ids, search, indexes and the
/// list pipeline.
@Suite struct RecordCollectionTests {
    static let notes = #"""
    {"notes": [
      {"id": 1, "title": "Buy milk", "done": false, "tags": ["Home", "shop"], "owner": {"name": "Ann"}},
      {"id": 2, "title": "Call the plumber", "done": true, "tags": ["home"], "owner": {"name": "Bo"}},
      {"id": 10, "title": "Write the report", "done": false, "priority": 2, "owner": {"name": "Ann"}}
    ]}
    """#

    func load(_ text: String, name: String = "notes") throws(FixtureError) -> RecordCollection {
        try FixtureLoader.collection(named: name, from: Array(text.utf8), file: "\(name).json")
    }

    @Test func loadsTheWrapperOrABareArray() throws {
        let wrapped = try load(RecordCollectionTests.notes)
        #expect(wrapped.count == 3)
        #expect(wrapped.noun == "Note")
        #expect(wrapped.nextID == 11)
        #expect(try wrapped.record("10").object["title"]?.stringValue == "Write the report")
        #expect(throws: APIError(404, "Note with id '3' not found")) { try wrapped.record("3") }
        let bare = try load(#"[{"id": "a"}, {"id": "b", "x": 1}]"#)
        #expect(bare.nextID == 3)
        #expect(bare.position(of: "b") == 1)
    }

    @Test(arguments: [
        (#"[{"id": 1}, {"id": 1}]"#, "notes.json:1:24: [1].id: duplicate id 1"),
        ("[{\"id\": 1},\n {\"title\": \"x\"}]", "notes.json:2:2: [1]: missing required key \"id\""),
        (#"[{"id": 1.5}]"#, "notes.json:1:9: [0].id: expected an integer or a non-empty string id, found number"),
        (#"[{"id": 1},"#, "notes.json:1:12: unexpected end of input"),
        (#"{"items": []}"#, "notes.json:1:1: expected an array, or an object with a \"notes\" array"),
        (#"[3]"#, "notes.json:1:2: [0]: expected an object, found number"),
    ])
    func brokenFilesNameTheirPlace(text: String, expected: String) {
        #expect(throws: (any Error).self) { try load(text) }
        do {
            _ = try load(text)
        } catch {
            #expect(error.description.hasPrefix(String(expected.prefix(while: { $0 != ":" }))))
            #expect(error.line != nil && error.column != nil, "\(error)")
        }
    }

    @Test func searchesEveryStringFieldAndBuildsIndexesOnce() throws {
        let notes = try load(RecordCollectionTests.notes)
        #expect(notes.search("the") == [1, 2])
        #expect(notes.search("milk") == [0])
        #expect(notes.search("") == [0, 1, 2])
        #expect(notes.matching("done", equals: "false") == [0, 2])
        #expect(notes.matching("tags", containsIgnoringCase: "HOME") == [0, 1])
        #expect(notes.filter(path: "owner.name", value: "Ann") == [0, 2])
        #expect(notes.filter(path: "done", value: "false").isEmpty, "a falsy value never matches")
        #expect(notes.distinctElements(of: "tags") == ["Home", "shop", "home"])
    }

    @Test func listsWithTheSharedPipeline() throws {
        let notes = try load(RecordCollectionTests.notes)
        var query = ListQuery()
        query.limit = 2
        query.skip = 1
        query.select = ["id", "title"]
        let page = String(decoding: RecordListing.body("notes", notes.records, matching: notes.all, query: query), as: UTF8.self)
        #expect(page == #"{"notes":[{"id":2,"title":"Call the plumber"},{"id":10,"title":"Write the report"}],"total":3,"skip":1,"limit":2}"#)
        query = ListQuery()
        query.sortBy = "title"
        query.order = .descending
        query.select = ["id"]
        let sorted = String(decoding: RecordListing.body("notes", notes.records, matching: notes.all, query: query,
                                                          honours: .paging), as: UTF8.self)
        #expect(sorted.hasPrefix(#"{"notes":[{"id":1,"title":"Buy milk""#), "sort and select not honoured")
        let honoured = String(decoding: RecordListing.body("notes", notes.records, matching: notes.all, query: query), as: UTF8.self)
        #expect(honoured == #"{"notes":[{"id":10},{"id":2},{"id":1}],"total":3,"skip":0,"limit":3}"#)
    }

    @Test func aDirectoryOfCollectionsLoadsAndRefusesReservedNames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(RecordCollectionTests.notes.utf8).write(to: directory.appendingPathComponent("notes.json"))
        let catalog = try Catalog.load(directory: directory.path)
        #expect(catalog.collections["notes"]?.count == 3)
        #expect(catalog.productCount == Catalog.standard.productCount)
        try Data("[]".utf8).write(to: directory.appendingPathComponent("auth.json"))
        #expect(throws: FixtureError.self) { try Catalog.load(directory: directory.path) }
    }
}
