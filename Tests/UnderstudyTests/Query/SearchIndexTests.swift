import Testing
@testable import Understudy

@Suite struct SearchIndexTests {
    private let fields: [[String]] = [["red lamp", "a lamp"], [], ["blue"], ["", "lamp shade"], ["re", "d lamp"]]

    private func search(_ needle: String) -> [Int] {
        SearchIndex(count: fields.count) { fields[$0] }.items(containing: Array(needle.utf8))
    }

    @Test func eachItemIsFoundOnceInOrder() {
        #expect(search("lamp") == [0, 3, 4])
        #expect(search("blue") == [2])
        #expect(search("shade") == [3])
        #expect(search("x") == [])
    }

    @Test func aMatchNeverSpansTwoFields() {
        // "re" + "d lamp" are adjacent fields of item 4; "red" only matches item 0.
        #expect(search("red") == [0])
        #expect(search("p") == [0, 3, 4])
    }

    @Test func anEmptyQueryIsEveryItem() {
        #expect(search("") == [0, 1, 2, 3, 4])
        #expect(SearchIndex(count: 0) { _ in [] }.items(containing: Array("a".utf8)) == [])
    }
}
