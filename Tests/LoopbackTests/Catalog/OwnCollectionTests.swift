import Foundation
import Testing
import Understudy

/// Your own collection over a real socket: a `todos.json` dropped into a folder is served at `/todos` with the
/// list engine, search, one item, simulated writes and faults; a broken file stops start-up with its place.
@Suite struct OwnCollectionTests {
    static let todos = #"""
    [
      {"id": 1, "todo": "Water the ferns", "completed": false, "userId": 3},
      {"id": 2, "todo": "Book the dentist", "completed": true, "userId": 1},
      {"id": 3, "todo": "Fix the garden gate", "completed": false, "userId": 3},
      {"id": 4, "todo": "Return library books", "completed": true, "userId": 2}
    ]
    """#

    func folder(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    @Test func aDroppedFileIsServedWithSearchPagingAndFaults() async throws {
        let directory = try folder(["todos.json": OwnCollectionTests.todos])
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try Catalog.load(directory: directory.path)
        try await withServer({ $0.catalog = catalog }) { _, client in
            let page = try await client.send("/todos?limit=2&skip=1&select=todo")
            #expect(page.status == 200)
            #expect(page.text == #"{"todos":[{"id":2,"todo":"Book the dentist"},{"id":3,"todo":"Fix the garden gate"}],"total":4,"skip":1,"limit":2}"#)
            #expect(page.header("ETag") != nil)

            let search = try await client.send("/todos/search?q=THE&sortBy=id&order=desc")
            #expect(search.text.hasPrefix(#"{"todos":[{"id":3,"#))
            #expect(search.text.hasSuffix(#""total":3,"skip":0,"limit":3}"#))

            let one = try await client.send("/todos/2")
            #expect(one.text == #"{"id":2,"todo":"Book the dentist","completed":true,"userId":1}"#)
            let missing = try await client.send("/todos/9")
            #expect(missing.status == 404)
            #expect(missing.message == "Todo with id '9' not found")

            let filtered = try await client.send("/todos/filter?key=userId&value=3&select=id")
            #expect(filtered.text == #"{"todos":[{"id":1},{"id":3}],"total":2,"skip":0,"limit":2}"#)

            let added = try await client.json("POST", "/todos/add", raw: #"{"todo": "New", "completed": false}"#)
            #expect(added.status == 201)
            #expect(added.text == #"{"id":5,"todo":"New","completed":false}"#)
            let patched = try await client.json("PATCH", "/todos/1", raw: #"{"completed": true}"#)
            #expect(patched.text == #"{"id":1,"todo":"Water the ferns","completed":true,"userId":3}"#)
            let deleted = try await client.send("DELETE", "/todos/4")
            #expect(deleted.text.contains(#""isDeleted":true,"deletedOn":""#))

            let faulted = try await client.send("/todos?_fault=status=503")
            #expect(faulted.status == 503)
            #expect(faulted.header("X-Understudy-Fault-Applied") == "status=503")
            let bad = try await client.send("/todos?limit=x")
            #expect(bad.message == "Invalid 'limit' - must be a number")
        }
    }

    @Test func aBrokenFileStopsStartUpWithItsPlace() throws {
        let directory = try folder(["todos.json": "[\n  {\"id\": 1},\n  {\"id\": 1}\n]"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: FixtureError.self) { try Catalog.load(directory: directory.path) }
        do {
            _ = try Catalog.load(directory: directory.path)
        } catch {
            #expect(error.description == directory.appendingPathComponent("todos.json").path + ":3:10: [1].id: duplicate id 1")
        }
    }
}
