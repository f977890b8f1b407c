/// The sort direction for list endpoints.
public enum SortOrder: String, Sendable, Hashable {
    /// Ascending (DummyJSON's default when `sortBy` is given).
    case asc
    /// Descending.
    case desc
}
