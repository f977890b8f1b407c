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

    @Test func itAgreesWithAPlainScanOnEveryNeedleLength() {
        // Items of seeded pseudo-random text over a small alphabet, so needles of 1 to 40 bytes hit and miss at
        // every offset of the scan's 16-byte blocks.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array("abc d".utf8)
        let items: [[String]] = (0..<300).map { _ in
            (0..<Int(next() % 3)).map { _ in
                String(decoding: (0..<Int(next() % 60)).map { _ in alphabet[Int(next() % 5)] }, as: UTF8.self)
            }
        }
        let index = SearchIndex(count: items.count) { items[$0] }
        for length in 1...40 {
            for _ in 0..<5 {
                let needle = String(decoding: (0..<length).map { _ in alphabet[Int(next() % 5)] }, as: UTF8.self)
                let expected = items.indices.filter { items[$0].contains { $0.contains(needle) } }
                #expect(index.items(containing: Array(needle.utf8)) == expected, "needle \(needle)")
            }
        }
    }
}
