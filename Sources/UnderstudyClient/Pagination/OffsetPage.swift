/// A page of a skip/limit listing that reports the total number of matches, like DummyJSON's list wrapper.
public protocol OffsetPage: Sendable {
    /// The item type.
    associatedtype Item: Sendable
    /// The items on this page.
    var items: [Item] { get }
    /// The number of matches before skip and limit were applied.
    var total: Int { get }
}
