import Testing
@testable import Understudy
import UnderstudyJSON

/// A sort by ranks against the stable comparison sort it replaced: JavaScript's `<`, ties in list order, items
/// missing the field last in both orders.
@Suite struct SortOrderTests {
    /// The comparison sort `RecordListing` ran on every sorted request before ranks.
    private func reference(_ items: [Int], _ keys: [SortKey], _ order: ListQuery.Order) -> [Int] {
        Array(items.indices).sorted { lhs, rhs in
            let left = keys[items[lhs]]
            let right = keys[items[rhs]]
            if left == right { return lhs < rhs }
            if left == .missing || right == .missing { return right == .missing }
            return order == .ascending ? left < right : right < left
        }.map { items[$0] }
    }

    /// Seeded keys over few distinct values, so ties, numbers against strings and missing fields all occur.
    private func keys(_ count: Int, seed: UInt64) -> [SortKey] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        return (0..<count).map { _ in
            switch next() % 4 {
            case 0: .missing
            case 1: .number(Double(Int(next() % 7)) - 3)
            default: .string(Array(["", "a", "B", "ab", "é", "b"][Int(next() % 6)].utf16))
            }
        }
    }

    @Test(arguments: [1, 2, 40, 500])
    func agreesWithTheComparisonSortOnEveryList(count: Int) {
        let keys = keys(count, seed: UInt64(count))
        let order = SortOrder(keys: keys)
        let lists = [Array(0..<count), Array(0..<count).filter { $0 % 3 == 0 }, Array(0..<count).filter { $0 % 97 == 5 }]
        for items in lists {
            for direction in [ListQuery.Order.ascending, .descending] {
                #expect(order.sorted(items, direction) == reference(items, keys, direction), "\(items.count) of \(count), \(direction)")
            }
        }
    }

    @Test func missingEverywhereLeavesTheOrderAlone() {
        let order = SortOrder(keys: [.missing, .missing, .missing])
        #expect(order.sorted([0, 1, 2], .descending) == [0, 1, 2])
        #expect(SortOrder(keys: []).sorted([], .ascending) == [])
    }

    @Test func readsTheFieldOfEveryRecord() throws {
        let records = try FixtureLoader.collection(
            named: "notes", from: Array(#"[{"id": 1, "n": "b"}, {"id": 2}, {"id": 3, "n": "a"}, {"id": 4, "n": 2}]"#.utf8),
            file: "notes.json").records
        let order = SortOrder(field: "n", of: records)
        #expect(order.sorted([0, 1, 2, 3], .ascending) == [3, 2, 0, 1])
        #expect(order.sorted([0, 1, 2, 3], .descending) == [0, 2, 3, 1])
    }
}
